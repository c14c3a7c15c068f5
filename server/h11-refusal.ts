/**
 * What uvicorn (h11) answers to bytes it cannot read as HTTP, byte for byte, and Node's own answers for the limits
 * the mock keeps from Node's parser ([decisions.md](../docs/decisions.md)).
 */

/** Node's own answers to a request it cannot read, which a `clientError` listener takes over (node:_http_server). */
const NODE_REFUSALS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
}

/** What uvicorn (h11) says of bytes it cannot read as HTTP. */
const UVICORN_REFUSAL = 'Invalid HTTP request received.'

/**
 * The refusal of `code` (a Node parser error's, or none), as h11 frames uvicorn's 400: h11 frames a body by the HTTP
 * version of the last request it read on the connection (`version`). With none read yet, the body ends with the
 * connection, and h11 writes the `Connection` field it adds in title case; after an HTTP/1.1 request, the body goes
 * in chunks, and the `connection` field uvicorn gave stays as it was.
 */
export function refusalBytes(code: string | undefined, version: string | undefined): string {
  const status = NODE_REFUSALS[code ?? '']
  if (status) return `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`
  const head = 'HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\n'
  if (version !== '1.1') return `${head}Connection: close\r\n\r\n${UVICORN_REFUSAL}`
  const chunk = `${UVICORN_REFUSAL.length.toString(16)}\r\n${UVICORN_REFUSAL}\r\n0\r\n\r\n`
  return `${head}connection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`
}

/**
 * Why h11 would refuse a request Node's parser read, or undefined: a request line without a version (HTTP/0.9 to
 * Node), an HTTP/1.1 request without `Host`, or one with two (h11's "Missing mandatory Host: header" and "Found
 * multiple Host: headers"), and a transfer coding but `chunked` alone, which Node decodes (`gzip, chunked`) and h11
 * refuses ("Only Transfer-Encoding: chunked is supported", "multiple Transfer-Encoding headers").
 */
export function unreadByH11(req: { httpVersionMajor: number; httpVersion: string; rawHeaders: string[] }) {
  if (req.httpVersionMajor < 1) return 'no HTTP version'
  let hosts = 0
  let codings = 0
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    const name = req.rawHeaders[index]?.toLowerCase()
    if (name === 'host') hosts++
    if (name !== 'transfer-encoding') continue
    if (++codings > 1) return 'two Transfer-Encoding fields'
    if (req.rawHeaders[index + 1]?.trim().toLowerCase() !== 'chunked') return 'a transfer coding but chunked'
  }
  if (hosts > 1) return 'two Host fields'
  if (hosts === 0 && req.httpVersion === '1.1') return 'no Host field'
  return undefined
}
