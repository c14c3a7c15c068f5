import { promisify } from 'node:util'
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib'
import { judgeExchange, type JudgeOptions, type Violation } from '../../verify/judge/index.js'
import { isJsonContentType } from '../../fastapi/http/body.js'
import type { Incoming, Outgoing } from './forward.js'

/** The response header that names the checks an answer broke. */
export const VIOLATIONS_HEADER = 'x-contract-violations'

/** One answer that broke the contract, as `GET /__mock/violations` lists it. */
export interface ViolationEntry {
  /** The journal entry of the exchange. */
  seq: number
  method: string
  path: string
  query: string
  status: number
  violations: Violation[]
}

/** Violations kept at most: the oldest go first, so a long session's memory stays bounded. */
const KEPT = 500

/** The answers that broke the contract, newest last. */
export class ViolationLog {
  #entries: ViolationEntry[] = []

  add(entry: ViolationEntry): void {
    this.#entries.push(entry)
    if (this.#entries.length > KEPT) this.#entries.splice(0, this.#entries.length - KEPT)
  }

  list(): ViolationEntry[] {
    return [...this.#entries]
  }

  clear(): void {
    this.#entries = []
  }
}

/**
 * Bytes of a body the proxy decodes and judges at most (16 MiB), whatever its compressed size: a 1 MB gzip
 * answer can expand to gigabytes. Past it the answer goes on untouched, and is listed as {@link NOT_JUDGED}.
 */
export const JUDGED_BYTES = 16 * 2 ** 20

/** The check an answer too large to judge is listed under (at `GET /__mock/violations` and in the header). */
export const NOT_JUDGED = 'not-judged'

/** A body past {@link JUDGED_BYTES} once decoded. */
export const TOO_LARGE = Symbol('too large to judge')

/** A body as the judge reads it: decoded, or too large to read. */
export type DecodedBody = Buffer | typeof TOO_LARGE

/** Judges one forwarded exchange: the bodies read as JSON where they are JSON (a compressed answer decoded first). */
export async function judgeForwarded(
  outgoing: Outgoing,
  incoming: Incoming,
  answer: DecodedBody,
  options: JudgeOptions,
): Promise<Violation[]> {
  const requestType = headerOf(outgoing.rawHeaders, 'content-type')
  const request = await decodedBody(outgoing.body, headerOf(outgoing.rawHeaders, 'content-encoding'))
  const tooLarge = [request, answer].includes(TOO_LARGE)
  if (tooLarge) return [{ check: NOT_JUDGED, message: `a body decodes to more than ${JUDGED_BYTES} bytes: not judged` }]
  const [path = '', query = ''] = splitTarget(outgoing.target)
  const contentType = incoming.headers['content-type'] ?? null
  return judgeExchange(
    {
      method: outgoing.method,
      path,
      query,
      requestBody: jsonOf(request as Buffer, requestType),
      status: incoming.status,
      responseBody: jsonOf(answer as Buffer, contentType),
      contentType,
    },
    options,
  )
}

/**
 * The header's value: the checks broken, each once, comma-separated (check ids are ASCII, so any client reads
 * it); the messages are at `GET /__mock/violations`.
 * @example summary([{ check: 'paging.total', message: '…' }]) // 'paging.total'
 */
export const summary = (violations: readonly Violation[]): string =>
  [...new Set(violations.map((violation) => violation.check))].join(', ')

/** Path and query of a request target (an absolute-form target, as sent to a forward proxy, read by its path). */
export function splitTarget(target: string): [string, string] {
  const relative = target.startsWith('/')
    ? target
    : URL.canParse(target)
      ? new URL(target).pathname + new URL(target).search
      : `/${target}`
  const at = relative.indexOf('?')
  return at === -1 ? [relative, ''] : [relative.slice(0, at), relative.slice(at + 1)]
}

/** A request header's first value, from raw headers. */
export function headerOf(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) return raw[i + 1]
  return undefined
}

function jsonOf(body: Buffer, type: string | null | undefined): unknown {
  if (!type || !isJsonContentType(type) || body.byteLength === 0) return undefined
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    // Not JSON after all (or an encoding the proxy cannot read): the judge says what it expected.
    return undefined
  }
}

const DECODERS = new Map<string, (body: Buffer, options: ZlibOptions) => Promise<Buffer>>([
  ['gzip', promisify(gunzip)],
  ['x-gzip', promisify(gunzip)],
  ['deflate', promisify(inflate)],
  ['br', promisify(brotliDecompress)],
])

/**
 * A body with its content-encoding undone (as it came when it cannot be), or {@link TOO_LARGE}. zlib decodes on
 * its thread pool, off the event loop, and stops at {@link JUDGED_BYTES}: a compression bomb costs that much.
 */
export async function decodedBody(body: Buffer, encoding: string | undefined): Promise<DecodedBody> {
  const decode = DECODERS.get(encoding?.trim().toLowerCase() ?? '')
  if (!decode) return body.byteLength > JUDGED_BYTES ? TOO_LARGE : body
  try {
    return await decode(body, { maxOutputLength: JUDGED_BYTES })
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return TOO_LARGE
    return body
  }
}
