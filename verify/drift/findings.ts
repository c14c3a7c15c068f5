import type { DescribedBound } from './described-bounds.js'
import type { OpenApiDocument } from './openapi-source.js'

/**
 * What a difference between the mock's document and the server's means on the wire. It fails only
 * where a client built against the mock could break: a request the mock takes that the server would
 * refuse, or an answer the server may send that such a client cannot take. Every other difference
 * is a note: a server more lenient than the mock, what it declares beyond the mock, and what changes
 * nothing on the wire (another generation's spelling, a default, an answer's bounds).
 */

/** Where a schema sits: what a client sends as a parameter or a body, or what it receives. */
export type Side = 'parameter' | 'body' | 'response'

export interface SchemaFinding {
  /** `warning`: a difference a frontend team should know of, but that the description or the profile allows. */
  verdict: 'failure' | 'warning' | 'note'
  message: string
  /** Notes of one topic are reported together, `message` being the place. */
  topic?: string
}

export interface Documents {
  mock: OpenApiDocument
  server: OpenApiDocument
  /**
   * Whether the server's document marks every field that may be null (pydantic 2's `anyOf [X, null]`). pydantic 1
   * writes `Optional[X]` as `X`, and marks null only where a team adds `nullable: true` (`schema_extra`): there,
   * a field not marked may still be null, and only a mark says something.
   */
  serverMarksEveryNull: boolean
  /** The bounds the description gives (described-bounds.ts): a server bound refusing a value inside one fails. */
  described: readonly DescribedBound[]
}

export const failure = (message: string): SchemaFinding => ({ verdict: 'failure', message })
export const note = (message: string, topic?: string): SchemaFinding => ({ verdict: 'note', message, topic })
export const warning = (message: string): SchemaFinding => ({ verdict: 'warning', message })

/** A request the server takes where the mock refuses it. */
export const LENIENT = 'more lenient than the mock'
/** An answer that holds less than the mock's may: a client of the mock takes it. */
export const NARROWER = 'narrower than the mock'
/** A parameter, field, status or value the server declares and the mock does not know. */
export const BEYOND = 'beyond the mock'
/** A difference where the description leaves the choice open. */
export const LEFT_OPEN = 'left open by the description'
/** A difference of the documents that changes nothing on the wire. */
export const DOCUMENT_ONLY = 'document only'

export const TOPICS = {
  unmarkedNull: 'dialect: pydantic 1 writes Optional[X] as X: nullability not compared',
  parameterNull: 'a query or path parameter cannot carry null: nullability not compared',
  errorInput: 'dialect: FastAPI ≥0.128.1 declares input and ctx in its 422 schema',
  freeForm: "a field the server's document does not name, in an object that takes any field: not compared",
} as const
