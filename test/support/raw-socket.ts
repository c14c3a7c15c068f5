import { connect } from 'node:net'

/** An answer as it came over the wire: the status line's code, the header fields (lower-case names), the body. */
export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * Sends one request head as raw bytes (`fetch` cannot send `TRACE`, `CONNECT` or a lower-case method) and
 * reads the answer until the server closes the connection.
 */
export function sendRawHead(base: string, method: string, path: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`),
    )
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      const [head = '', body = ''] = text.split('\r\n\r\n', 2)
      const [line = '', ...fields] = head.split('\r\n')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(line)?.[1] ?? 0)
      const headers = Object.fromEntries(
        fields.map((field) => [
          field.slice(0, field.indexOf(':')).toLowerCase(),
          field.slice(field.indexOf(':') + 1).trim(),
        ]),
      )
      resolve({ status, headers, body })
    })
  })
}

/** Sends raw bytes on a new connection and reads all that comes back until the server closes it (or 5 s pass). */
export function sendRawBytes(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes, 'latin1'))
    const chunks: Buffer[] = []
    const guard = setTimeout(() => socket.destroy(), 5000)
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(guard)
      resolve(Buffer.concat(chunks).toString('latin1'))
    })
  })
}

/**
 * The answers in bytes a connection carried, in order: each one's status and body (read by its content length, its
 * chunks, or up to the end), for comparing servers whose transport headers (`date`, `server`) differ.
 */
export function answersIn(text: string): Array<{ status: number; body: string }> {
  const answers: Array<{ status: number; body: string }> = []
  let rest = text
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n')
    if (end < 0) break
    const head = rest.slice(0, end)
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0)
    rest = rest.slice(end + 4)
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1]
    let body: string
    if (length !== undefined) [body, rest] = [rest.slice(0, Number(length)), rest.slice(Number(length))]
    else if (/\r\ntransfer-encoding: *chunked/i.test(head)) [body, rest] = unchunked(rest)
    else [body, rest] = [rest, '']
    answers.push({ status, body })
  }
  return answers
}

/** A chunked body's bytes, and what follows it. */
function unchunked(text: string): [string, string] {
  let body = ''
  let rest = text
  for (;;) {
    const line = rest.indexOf('\r\n')
    const size = Number.parseInt(rest.slice(0, line), 16)
    if (line < 0 || Number.isNaN(size)) return [body, '']
    rest = rest.slice(line + 2)
    if (size === 0) return [body, rest.slice(rest.indexOf('\r\n') + 2)]
    body += rest.slice(0, size)
    rest = rest.slice(size + 2)
  }
}
