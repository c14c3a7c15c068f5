import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import express, { type Express } from 'express'
import { DOCS_ASSETS_PATH, OAUTH2_REDIRECT_PATH } from '../core/meta.js'
import { httpError } from '../fastapi/http/responses.js'
import { statusPhrase } from '../fastapi/http/status-phrases.js'
import { sendInstead } from './middleware.js'

/**
 * The absolute folder of the installed `swagger-ui-dist` package, to serve under the docs
 * page's `assetsPath`. Resolved through the package's `package.json`, which works whether or
 * not the package has an `exports` map.
 * @throws when the package is not installed (it is an optional peer dependency)
 */
export function swaggerUiAssetsDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}

/** {@link swaggerUiAssetsDir}, or undefined when `swagger-ui-dist` is not installed. */
export function findSwaggerUiAssets(): string | undefined {
  try {
    return swaggerUiAssetsDir()
  } catch (error) {
    if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') return undefined
    throw error
  }
}

/**
 * swagger-ui's files, for the `/docs` page the core answers, and its OAuth2 redirect page
 * (the page FastAPI serves at `/docs/oauth2-redirect` is swagger-ui's): from the installed
 * package, never a CDN. `swagger-ui-dist` is an optional peer dependency (its `@scarf/scarf`
 * reports installs from a postinstall script, so it reaches only those who ask for it):
 * without it, `/docs` is a page that says how to get the interactive docs, and the redirect
 * page is a 404. `/openapi.json` is the core's and always answers.
 * @param locate where swagger-ui's files are; undefined when they are not installed
 */
export function serveDocsAssets(app: Express, locate: () => string | undefined = findSwaggerUiAssets): void {
  const folder = locate()
  if (folder === undefined) {
    serveDocsFallback(app)
    return
  }
  app.use(
    DOCS_ASSETS_PATH,
    onlyReads,
    express.static(folder, { index: false, fallthrough: false, redirect: false }),
    refuseAsset,
  )
  // swagger-ui's page loads its script from its own folder, which is served elsewhere here.
  const page = readFileSync(join(folder, 'oauth2-redirect.html'), 'utf8').replace(
    'src="oauth2-redirect.js"',
    `src="${DOCS_ASSETS_PATH}/oauth2-redirect.js"`,
  )
  app.get(OAUTH2_REDIRECT_PATH, (_req, res) => void res.type('html').send(page))
}

/**
 * Starlette's `StaticFiles` reads only: another method (a lower-case `get` too, which Express would route as GET)
 * is its 405, `{"detail": "Method Not Allowed"}`, not serve-static's empty one.
 */
function onlyReads(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (req.method === 'GET' || req.method === 'HEAD') next()
  else void sendInstead(res, httpError(405, statusPhrase(405)), req.method)
}

/**
 * What the assets refuse (a file that is not there, a condition or range it does not meet) is the client's
 * mistake, answered as FastAPI refuses (`{"detail": "Not Found"}`), not a failure of the mock logged with a 500.
 */
function refuseAsset(error: unknown, req: IncomingMessage, res: ServerResponse, next: (error: unknown) => void): void {
  const status = (error as { status?: unknown } | undefined)?.status
  if (typeof status === 'number' && status >= 400 && status < 500)
    void sendInstead(res, httpError(status, statusPhrase(status)), req.method)
  else next(error)
}

/** The sentence `/docs` answers when swagger-ui-dist is not installed. */
export const DOCS_UNAVAILABLE =
  'Install swagger-ui-dist to get the interactive docs: npm install --save-dev swagger-ui-dist, then restart the mock.'

const FALLBACK_PAGE = `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>Agent Management Console API - docs</title>
</head>
<body>
<p>${DOCS_UNAVAILABLE}</p>
<p>The OpenAPI document is at <a href="/openapi.json">/openapi.json</a>.</p>
</body>
</html>
`

/** `/docs` exactly, as Starlette matches it (case and slash included): its other spellings go on to the core. */
function serveDocsFallback(app: Express): void {
  app.use((req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && req.path === '/docs') res.type('html').send(FALLBACK_PAGE)
    else next()
  })
}
