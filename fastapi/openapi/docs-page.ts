/** What the page needs: where the document is, where swagger-ui's files are served, and the tab title. */
export interface DocsPageOptions {
  /** URL of the OpenAPI document, e.g. `/openapi.json`. */
  readonly openapiUrl: string
  /** URL folder that serves the files of `swagger-ui-dist` (see `swaggerUiAssetsDir`), e.g. `/docs/assets`. */
  readonly assetsPath: string
  /** The `<title>`; FastAPI uses `"<app title> - Swagger UI"`. */
  readonly title: string
  /**
   * FastAPI's default app passes `/docs/oauth2-redirect` (`swagger_ui_oauth2_redirect_url`), so the
   * page names it; `null` leaves the line out, as an app with that setting switched off does.
   */
  readonly oauth2RedirectUrl?: string | null
}

/** FastAPI's `swagger_ui_default_parameters`, written one per line as `json.dumps(key): json.dumps(value),`. */
const SWAGGER_UI_PARAMETERS: ReadonlyArray<readonly [string, unknown]> = [
  ['dom_id', '#swagger-ui'],
  ['layout', 'BaseLayout'],
  ['deepLinking', true],
  ['showExtensions', true],
  ['showCommonExtensions', true],
]

/**
 * The page of FastAPI's `get_swagger_ui_html`, byte for byte (its odd indentation included), except
 * that swagger-ui's CSS, JS and favicon come from `assetsPath` instead of a CDN: the mock must work
 * offline and must not send a developer's browser to a third party.
 * @example docsPageHtml({ openapiUrl: '/openapi.json', assetsPath: '/docs/assets', title: 'Agent Management Console API - Swagger UI' })
 */
export function docsPageHtml(options: DocsPageOptions): string {
  const assets = options.assetsPath.replace(/\/+$/, '')
  const redirect = options.oauth2RedirectUrl === undefined ? '/docs/oauth2-redirect' : options.oauth2RedirectUrl
  let html = `
    <!DOCTYPE html>
    <html>
    <head>
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link type="text/css" rel="stylesheet" href="${htmlAttribute(`${assets}/swagger-ui.css`)}">
    <link rel="shortcut icon" href="${htmlAttribute(`${assets}/favicon-32x32.png`)}">
    <title>${htmlText(options.title)}</title>
    </head>
    <body>
    <div id="swagger-ui">
    </div>
    <script src="${htmlAttribute(`${assets}/swagger-ui-bundle.js`)}"></script>
    <!-- \`SwaggerUIBundle\` is now available on the page -->
    <script>
    const ui = SwaggerUIBundle({
        url: '${jsString(options.openapiUrl)}',
    `
  for (const [key, value] of SWAGGER_UI_PARAMETERS) html += `${scriptJson(key)}: ${scriptJson(value)},\n`
  if (redirect) html += `oauth2RedirectUrl: window.location.origin + '${jsString(redirect)}',`
  html += `
    presets: [
        SwaggerUIBundle.presets.apis,
        SwaggerUIBundle.SwaggerUIStandalonePreset
        ],
    })`
  html += `
    </script>
    </body>
    </html>
    `
  return html
}

/** FastAPI's `_html_safe_json`: JSON that cannot close the `<script>` it sits in. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}

/**
 * FastAPI pastes URLs and the title in unescaped; these escapes leave the ordinary values FastAPI
 * serves unchanged, and keep a caller's odd value from breaking out of its attribute or string.
 */
function htmlAttribute(value: string): string {
  return htmlText(value).replace(/"/g, '&quot;')
}

function htmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function jsString(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
}
