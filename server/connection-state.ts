import type { ServerResponse } from 'node:http'

/**
 * What the standalone server keeps of one connection, for what Node's server does not hand to the app: its answers
 * not yet sent whole (pipelined requests are answered in order), the HTTP version of the last request read on it,
 * and the head of a request Node's parser failed on, as its bytes come.
 */
export class ConnectionState {
  readonly #answers = new Set<ServerResponse>()
  #last: (() => void) | undefined
  /** The HTTP version of the last request read on the connection (h11 frames a refusal by it). */
  version: string | undefined
  /** The bytes of a head Node's parser failed on (a method it does not know), until the head is whole. */
  partialHead: Buffer | undefined
  /** A last thing to do is set: the connection closes after it, and nothing it reads is answered. */
  closing = false

  /** Counts `res` as under way until it is sent whole or its connection closes. */
  track(res: ServerResponse): void {
    this.#answers.add(res)
    const done = () => {
      this.#answers.delete(res)
      this.#settle()
    }
    res.once('finish', done)
    res.once('close', done)
  }

  /** The answer whose request's body is still being read, if any (at most one: requests are read in order). */
  get reading(): ServerResponse | undefined {
    for (const res of this.#answers) if (!res.req.complete) return res
    return undefined
  }

  /** Stops waiting for `res`: its request never ends (a body Node cannot read), so it is never answered. */
  forget(res: ServerResponse): void {
    this.#answers.delete(res)
  }

  /**
   * Does `last` once every answer under way is sent whole (at once when none is), then nothing more: the
   * connection is closing. Node's own handling of a finished answer (freeing the socket) runs first.
   */
  closeWith(last: () => void): void {
    if (this.closing) return
    this.closing = true
    this.#last = last
    this.#settle()
  }

  #settle(): void {
    const last = this.#last
    if (!last || this.#answers.size > 0) return
    this.#last = undefined
    setImmediate(last)
  }
}
