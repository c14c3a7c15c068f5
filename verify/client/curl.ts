import { TOKEN_VARIABLES } from '../context.js'
import type { ApiRequest } from './http.js'

/**
 * A ready curl command for a request, so a developer can reproduce a failure by pasting one line.
 * Tokens are never written: the header reads them from the variables the verify command takes them
 * from (`$AGENT_CONSOLE_VERIFY_TOKEN`, ...), so a report can be shared as it is.
 * @example curlCommand('http://127.0.0.1:8000', request) // curl -sS -i 'http://…/v1/personas/?limit=0' -H "Authorization: Bearer $AGENT_CONSOLE_VERIFY_TOKEN"
 */
export function curlCommand(url: string, request: ApiRequest): string {
  const parts = ['curl -sS -i']
  if (request.method !== 'GET') parts.push(`-X ${request.method}`)
  parts.push(singleQuoted(url))
  if (request.auth.header !== undefined)
    parts.push(`-H "Authorization: ${request.auth.shell ?? `<${request.auth.label}>`}"`)
  const body = request.rawJson ?? (request.json === undefined ? undefined : JSON.stringify(request.json))
  if (body !== undefined) {
    parts.push(`-H 'content-type: application/json'`)
    parts.push(
      request.shellBody === undefined ? `--data-raw ${singleQuoted(body)}` : `--data-binary "${request.shellBody}"`,
    )
  }
  return parts.join(' ')
}

/** A word the shell takes literally: `'...'`, each `'` written as `'\''`. */
function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * The shell expression of the token with one signature character changed (as `auth.malformed-token`
 * sends it), computed from the variable: the command stays ready without printing the token.
 */
export const TAMPERED_TOKEN_SHELL =
  `$(node -e 'const [h,p,s]=process.env.${TOKEN_VARIABLES.token}.split(".");const i=s.length>>1;` +
  `process.stdout.write([h,p,s.slice(0,i)+(s[i]==="A"?"B":"A")+s.slice(i+1)].join("."))')`

/** The shell expression of the token's claims under an `alg: none` header with no signature (`auth.malformed-token`). */
export const UNSIGNED_TOKEN_SHELL = `eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.$(printf %s "$${TOKEN_VARIABLES.token}" | cut -d. -f2).`

/** The line a report starts its curl commands with. */
export const CURL_NOTE = `curl commands read the tokens from ${Object.values(TOKEN_VARIABLES)
  .map((name) => `$${name}`)
  .join(', ')}`
