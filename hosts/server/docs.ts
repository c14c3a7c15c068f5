import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import express, { type Express } from 'express'
import { DOCS_ASSETS_PATH, OAUTH2_REDIRECT_PATH } from '../../core/meta.js'

/**
 * The absolute folder of the installed `swagger-ui-dist` package, to serve under the docs
 * page's `assetsPath`. Resolved through the package's `package.json`, which works whether or
 * not the package has an `exports` map.
 */
export function swaggerUiAssetsDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}

/**
 * swagger-ui's files, for the `/docs` page the core answers, and its OAuth2 redirect page
 * (the page FastAPI serves at `/docs/oauth2-redirect` is swagger-ui's): from the installed
 * package, never a CDN.
 */
export function serveDocsAssets(app: Express): void {
  const folder = swaggerUiAssetsDir()
  app.use(DOCS_ASSETS_PATH, express.static(folder, { index: false, fallthrough: false }))
  // swagger-ui's page loads its script from its own folder, which is served elsewhere here.
  const page = readFileSync(join(folder, 'oauth2-redirect.html'), 'utf8').replace(
    'src="oauth2-redirect.js"',
    `src="${DOCS_ASSETS_PATH}/oauth2-redirect.js"`,
  )
  app.get(OAUTH2_REDIRECT_PATH, (_req, res) => void res.type('html').send(page))
}
