import { encodedJsonResponse, htmlResponse } from '../fastapi/http/responses.js'
import type { Route } from '../fastapi/http/router.js'
import type { Profile } from '../model/profile.js'
import { docsPageHtml } from '../fastapi/openapi/docs-page.js'
import { buildOpenApiDocument } from '../fastapi/openapi/document.js'
import { encodePythonJson } from '../fastapi/python/json-encode.js'

/** Where a host serves swagger-ui's files for the docs page (under the control prefix: never the API's). */
export const DOCS_ASSETS_PATH = '/__mock/docs-assets'
/** FastAPI's `swagger_ui_oauth2_redirect_url`: the page is swagger-ui's own, which a host serves from its files. */
export const OAUTH2_REDIRECT_PATH = '/docs/oauth2-redirect'

/**
 * FastAPI's own routes, which it declares before the API's (so they come first in routing):
 * Starlette `Route`s, which answer HEAD as well as GET.
 */
export const META_ROUTES: readonly Route[] = [
  { name: 'openapi', method: 'GET', path: '/openapi.json', head: true },
  { name: 'swagger_ui_html', method: 'GET', path: '/docs', head: true },
  { name: 'swagger_ui_redirect', method: 'GET', path: OAUTH2_REDIRECT_PATH, head: true },
]

/**
 * The answers of FastAPI's own routes: `/openapi.json` and the `/docs` page (its swagger-ui
 * files come from the host, at {@link DOCS_ASSETS_PATH}). Each is written once.
 * @returns the answer, or undefined for a route the host serves (the OAuth2 redirect page)
 */
export function createMetaAnswers(profile: Profile) {
  let document: string | undefined
  let docs: string | undefined
  return (route: Route): Response | undefined => {
    if (route.name === 'openapi')
      return encodedJsonResponse(200, (document ??= encodePythonJson(buildOpenApiDocument(profile))))
    if (route.name === 'swagger_ui_html') return htmlResponse((docs ??= docsPage()))
    return undefined
  }
}

const docsPage = () =>
  docsPageHtml({
    openapiUrl: '/openapi.json',
    assetsPath: DOCS_ASSETS_PATH,
    title: 'Agent Management Console API - Swagger UI',
  })
