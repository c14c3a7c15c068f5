import express, { type Express } from 'express'
import { HttpResponse } from 'msw'
import { atPath } from '../handlers/match.js'
import { docsPageHtml, swaggerUiAssetsDir } from '../openapi/docs-page.js'

/** Where swagger-ui's files are served (lowercase: the server routes by it). */
export const DOCS_ASSETS_PATH = '/__mock/docs-assets'

/**
 * Interactive docs at `/docs`, as FastAPI serves them, but fully offline: swagger-ui's
 * files come from the installed swagger-ui-dist package, never from a CDN.
 */
export const docsHandler = () =>
  atPath('GET', '*', '/docs', () =>
    HttpResponse.html(docsPageHtml({ openapiUrl: '/openapi.json', assetsPath: DOCS_ASSETS_PATH, title: 'Agent Management Console API - Swagger UI' })),
  )

/** swagger-ui's files, for the page {@link docsHandler} answers. */
export function serveDocsAssets(app: Express): void {
  app.use(DOCS_ASSETS_PATH, express.static(swaggerUiAssetsDir(), { index: false, fallthrough: false }))
}
