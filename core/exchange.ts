import type { Outcome } from '../fastapi/http/reply.js'

/** One request on its way through the core, with its URL parsed once. */
export interface Exchange {
  readonly request: Request
  /** The method as sent: the request's own, or one Fetch cannot carry (core/sent-method.ts). */
  readonly method: string
  /**
   * The URL as the mock routes it: a session named in the path (`/__session/<key>`) taken off. Read only: it is
   * parsed once per request and shared with the host's `claims` check of the same request (handlers/app.ts).
   */
  readonly url: URL
  /** The URL as requested (`url` itself when the path names no session): what the journal keeps. */
  readonly requested: URL
  /** What was taken off the path (`/__session/<key>`, else `''`): every URL the mock writes back starts with it. */
  readonly prefix: string
  /**
   * The body's size in bytes, once core/body-limit.ts has read it all (undefined: no body): what a write is
   * admitted to the memory budget for, whether the request declared a length or was sent in chunks.
   */
  readonly bodyLength?: number
}

/** A step of the core: answers an exchange. */
export type Answer = (exchange: Exchange) => Promise<Outcome>
