import { Reply, type Outcome } from '../fastapi/http/reply.js'
import { internalServerError } from '../fastapi/http/responses.js'

/**
 * The answer `run` gives: what it returns, or the answer (a `Reply` or `Response`) it throws (steps refuse a request
 * by throwing their answer, as msw's resolvers may). Anything else thrown is a bug of the
 * mock: it is reported and answered as Starlette answers an unhandled exception.
 */
export async function settle(run: () => Promise<Outcome>, report: (error: unknown) => void): Promise<Outcome> {
  try {
    return await run()
  } catch (thrown) {
    if (thrown instanceof Reply || thrown instanceof Response) return thrown
    report(thrown)
    return internalServerError()
  }
}
