import { encodedJsonResponse, htmlResponse } from '../fastapi/responses.js'
import type { Profile } from '../model/profile.js'
import { docsPageHtml } from '../openapi/docs-page.js'
import { buildOpenApiDocument } from '../openapi/document.js'
import { encodePythonJson } from '../python/json-encode.js'

/** Where a host serves swagger-ui's files for the docs page (under the control prefix: never the API's). */
export const DOCS_ASSETS_PATH = '/__mock/docs-assets'

/**
 * FastAPI's own routes besides the API: `GET /openapi.json` and the `/docs` page (its
 * swagger-ui files come from the host, at {@link DOCS_ASSETS_PATH}). Each is written once.
 * @returns an answer for the request, or undefined when it is not one of these routes
 */
export function createMetaRoutes(profile: Profile) {
  let document: string | undefined
  let docs: string | undefined
  return (method: string, pathname: string): Response | undefined => {
    if (method !== 'GET') return undefined
    if (pathname === '/openapi.json') return encodedJsonResponse(200, (document ??= encodePythonJson(buildOpenApiDocument(profile))))
    if (pathname === '/docs') return htmlResponse((docs ??= docsPage()))
    return undefined
  }
}

const docsPage = () =>
  docsPageHtml({ openapiUrl: '/openapi.json', assetsPath: DOCS_ASSETS_PATH, title: 'Agent Management Console API - Swagger UI' })
