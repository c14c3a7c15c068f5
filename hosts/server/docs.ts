import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import express, { type Express } from 'express'
import { DOCS_ASSETS_PATH } from '../../core/meta.js'

/**
 * The absolute folder of the installed `swagger-ui-dist` package, to serve under the docs
 * page's `assetsPath`. Resolved through the package's `package.json`, which works whether or
 * not the package has an `exports` map.
 */
export function swaggerUiAssetsDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}

/** swagger-ui's files, for the `/docs` page the core answers: from the installed package, never a CDN. */
export function serveDocsAssets(app: Express): void {
  app.use(DOCS_ASSETS_PATH, express.static(swaggerUiAssetsDir(), { index: false, fallthrough: false }))
}
