/**
 * Methods a Fetch `Request` cannot carry as sent: `CONNECT`, `TRACE` and `TRACK` are forbidden, and a
 * standard method's name in another case (`get`) is upper-cased. uvicorn hands every method to
 * Starlette's router as sent, where no route accepts these: 405 with `allow` on a route's path, the
 * trailing-slash 307, or 404. A host that receives one builds its `Request` with a stand-in method
 * no route accepts either, and names the method as sent with {@link markSentMethod}, for the
 * journal and the logs.
 */
const SENT_METHOD = Symbol('agent-console-mock method as sent')
/** A method name no route of the mock accepts, that Fetch carries as it is. */
const STAND_IN = 'X-UNCARRIED-METHOD'
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK'])
const NORMALISED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'])
/** RFC 9110's token: what a method name may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** Methods that change nothing (RFC 9110's safe methods the API serves): not writes, and open to any page. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Whether a method name is an HTTP token (else no server answers it but with a 400). */
export const isMethodToken = (method: string): boolean => TOKEN.test(method)

/** The method a `Request` for this one is built with: itself, or the stand-in when Fetch would refuse or change it. */
export function fetchMethod(sent: string): string {
  const upper = sent.toUpperCase()
  return FORBIDDEN.has(upper) || (NORMALISED.has(upper) && upper !== sent) ? STAND_IN : sent
}

/** Names the method a request was sent with, when its `Request` carries the stand-in. */
export function markSentMethod(request: Request, sent: string): void {
  if (request.method !== sent) (request as MarkedRequest)[SENT_METHOD] = sent
}

/** The method the request was sent with (the `Request`'s own, unless a host named another). */
export const sentMethodOf = (request: Request): string => (request as MarkedRequest)[SENT_METHOD] ?? request.method

type MarkedRequest = Request & { [SENT_METHOD]?: string }
