import express, { type Express } from 'express'
import { http, HttpResponse } from 'msw'
import { atPath } from '../handlers/match.js'
import { docsPageHtml, swaggerUiAssetsDir } from '../openapi/docs-page.js'

const ASSETS_PATH = '/__mock/docs-assets'

/**
 * Interactive docs at `/docs`, as FastAPI serves them, but fully offline: swagger-ui's
 * files come from the installed swagger-ui-dist package, never from a CDN.
 */
export function serveDocs(app: Express) {
  app.use(ASSETS_PATH, express.static(swaggerUiAssetsDir(), { index: false, fallthrough: false }))
  return http.get(atPath('*', '/docs'), () =>
    HttpResponse.html(docsPageHtml({ openapiUrl: '/openapi.json', assetsPath: ASSETS_PATH, title: 'Agent Management Console API - Swagger UI' })),
  )
}
