import { Reply, type Outcome } from '../fastapi/http/reply.js'
import { internalServerError } from '../fastapi/http/responses.js'

/**
 * The answer `run` gives: what it returns, or the answer (a `Reply` or `Response`) it throws (steps refuse a request
 * by throwing their answer, as msw's resolvers may). Anything else thrown is a bug of the
 * mock: it is reported and answered as Starlette answers an unhandled exception.
 */
export function settle(run: () => Promise<Outcome>, report: (error: unknown) => void): Promise<Outcome> {
  const answerTo = (thrown: unknown): Outcome => {
    if (thrown instanceof Reply || thrown instanceof Response) return thrown
    report(thrown)
    return internalServerError()
  }
  // One `then`, not an `async` function: every request passes here twice, and under msw 3 each promise pays its
  // async hooks (docs/performance.md).
  try {
    return run().then(undefined, answerTo)
  } catch (thrown) {
    return Promise.resolve(answerTo(thrown))
  }
}
