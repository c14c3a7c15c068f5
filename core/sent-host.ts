/**
 * The `Host` header as a request sent it. A Fetch `Request`'s URL normalises it (`EXAMPLE.com:80` becomes
 * `example.com`), while Starlette writes its trailing-slash 307's `Location` from the header as sent. A host that
 * reads the header (the standalone server) marks the request with it; in-process requests carry none.
 */
const SENT_HOST = Symbol('agent-console-mock host as sent')

type MarkedRequest = Request & { [SENT_HOST]?: string }

/** Names the `Host` header the request was sent with. */
export function markSentHost(request: Request, host: string): void {
  ;(request as MarkedRequest)[SENT_HOST] = host
}

/** The `Host` header as sent, else the host of the request's URL. */
export const sentHostOf = (request: Request, url: URL): string => (request as MarkedRequest)[SENT_HOST] ?? url.host
