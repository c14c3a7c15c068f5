/**
 * `text` as a URL when it is an absolute `http:` or `https:` one, else `undefined`: every option naming a server
 * (`baseUrl`, `--target`, `--allow-origin`, `forward`, the Vite plugin's `mockServer`) and every URL read off a
 * request (an `Origin`, an absolute-form target) must be one before anything is sent to it or trusted.
 */
export function httpUrl(text: unknown): URL | undefined {
  if (typeof text !== 'string' || !URL.canParse(text)) return undefined
  const url = new URL(text)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
}
