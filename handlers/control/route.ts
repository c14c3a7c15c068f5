import type { Outcome } from '../../fastapi/http/reply.js'
import type { MockInstance } from '../../core/instance/instance.js'

/**
 * A control request as a route's answer gets it. `params` holds the `{name}` segments of the
 * route's path as the request spelled them (percent-encoded): a route decodes those it reads
 * decoded ({@link decodedSegment}).
 */
export interface ControlCall {
  readonly request: Request
  readonly url: URL
  readonly params: Readonly<Record<string, string>>
}

/** A control request answered on the world of the request's session. */
export interface WorldCall extends ControlCall {
  readonly instance: MockInstance
}

type Answered = Promise<Outcome> | Outcome

/**
 * One control route: what `GET /__mock/` lists, and how it answers. `path` is under the
 * control prefix; a `{name}` segment matches one path segment. A `GET` route answers `HEAD` too.
 * `answer` answers on the request's world; `server` about the server itself, for which no
 * session's world is created or touched.
 */
export type ControlRoute = {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  readonly path: string
  /** One line, for `GET /__mock/`. */
  readonly description: string
} & ({ readonly answer: (call: WorldCall) => Answered } | { readonly server: (call: ControlCall) => Answered })

/** A path segment percent-decoded; one that does not decode is taken as it is. */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
