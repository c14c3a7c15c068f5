import { encodedJsonResponse, htmlResponse } from '../fastapi/http/responses.js'
import type { Reply } from '../fastapi/http/reply.js'
import type { Route } from '../fastapi/http/router.js'
import type { Profile } from '../model/profile.js'
import { docsPageHtml } from '../fastapi/openapi/docs-page.js'
import { buildOpenApiDocument } from '../fastapi/openapi/document.js'
import { withServedOperations, type ListedOperation } from '../fastapi/openapi/merge.js'
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

/** A team's OpenAPI document, and those of its operations the mock serves. */
export interface ServedOperations {
  readonly document: Record<string, unknown>
  readonly operations: readonly ListedOperation[]
}

/**
 * The answers of FastAPI's own routes: `/openapi.json` (with the `served` operations of a team's document
 * beside the API's own) and the `/docs` page (its swagger-ui files come from the host, at
 * {@link DOCS_ASSETS_PATH}). Each is written once.
 * @returns the answer, or undefined for a route the host serves (the OAuth2 redirect page)
 */
export function createMetaAnswers(profile: Profile, served?: ServedOperations) {
  let document: string | undefined
  let docs: string | undefined
  return (route: Route): Reply | undefined => {
    if (route.name === 'openapi')
      return encodedJsonResponse(200, (document ??= encodePythonJson(openApiDocument(profile, served))))
    if (route.name === 'swagger_ui_html') return htmlResponse((docs ??= docsPage()))
    return undefined
  }
}

function openApiDocument(profile: Profile, served: ServedOperations | undefined): object {
  const own = buildOpenApiDocument(profile) as Record<string, unknown>
  if (!served) return own
  const plain = (value: unknown) => JSON.parse(encodePythonJson(value))
  return withServedOperations(own, served.document, served.operations, plain)
}

const docsPage = () =>
  docsPageHtml({
    openapiUrl: '/openapi.json',
    assetsPath: DOCS_ASSETS_PATH,
    title: 'Agent Management Console API - Swagger UI',
  })
