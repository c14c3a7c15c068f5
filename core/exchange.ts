/** One request on its way through the core, with its URL parsed once. */
export interface Exchange {
  readonly request: Request
  readonly url: URL
}

/** A step of the core: answers an exchange. */
export type Answer = (exchange: Exchange) => Promise<Response>
