import type { OpenApiDocument } from '../drift/openapi-source.js'

/**
 * Which generation of pydantic and FastAPI a server speaks, from what any server shows: the 422
 * entries and the OpenAPI document. A generation is a dialect: never a contract failure.
 *
 * - pydantic 1: dotted error types (`value_error.missing`, `type_error.uuid`), its own messages
 *   (`field required`, `value is not a valid uuid`), no `input`; OpenAPI 3.0.2 from FastAPI <0.99,
 *   `Optional[X]` written as plain `X`, an enum with a default as `allOf: [$ref]`.
 * - pydantic 2: snake_case types (`missing`, `uuid_parsing`), `input` (and `url` before FastAPI
 *   stripped it); `Optional[X]` as `anyOf: [X, {type: null}]`.
 * - FastAPI: ≤0.121 refuses missing credentials with 403, ≥0.122 with 401 + `WWW-Authenticate`;
 *   ≥0.128.1 declares `input` and `ctx` in its ValidationError schema.
 */
export type PydanticGeneration = '1' | '2'

const PYDANTIC_1_MESSAGES = [
  'field required',
  'value is not a valid uuid',
  'str type expected',
  'value is not a valid list',
  'value is not a valid integer',
]

/** The generation one 422 entry is written in, or undefined when it does not say. */
function entryGeneration(entry: unknown): PydanticGeneration | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined
  const { type, msg } = entry as { type?: unknown; msg?: unknown }
  if ('input' in entry || 'url' in entry) return '2'
  if (typeof type === 'string' && /^(value_error|type_error)(\.|$)/.test(type)) return '1'
  if (typeof msg === 'string' && PYDANTIC_1_MESSAGES.includes(msg)) return '1'
  return typeof type === 'string' && /^[a-z]+(_[a-z]+)*$/.test(type) && type !== 'value_error' ? '2' : undefined
}

/** The generation most entries of some 422 bodies are written in. */
export function errorsGeneration(entries: readonly unknown[]): PydanticGeneration | undefined {
  const votes = entries.map(entryGeneration)
  const [one, two] = [votes.filter((vote) => vote === '1').length, votes.filter((vote) => vote === '2').length]
  if (one === two) return undefined
  return one > two ? '1' : '2'
}

/** What an OpenAPI document says about the generations that wrote it. */
export interface DocumentDialect {
  openapi: string
  /** How an optional field is written: `anyOf-null` (pydantic 2), `nullable` (3.0 style), `plain` (pydantic 1: no null at all). */
  nullability: 'anyOf-null' | 'nullable' | 'plain'
  /** Whether the ValidationError schema declares `input`/`ctx` (FastAPI ≥0.128.1). */
  errorInputDeclared: boolean
}

export function documentDialect(document: OpenApiDocument): DocumentDialect {
  const text = JSON.stringify(document)
  const nullability = /\{"type":"null"\}/.test(text)
    ? 'anyOf-null'
    : /"nullable":true/.test(text)
      ? 'nullable'
      : 'plain'
  const properties =
    (document.components?.schemas?.['ValidationError'] as { properties?: Record<string, unknown> } | undefined)
      ?.properties ?? {}
  return {
    openapi: String(document['openapi']),
    nullability,
    errorInputDeclared: 'input' in properties || 'ctx' in properties,
  }
}

/** The pydantic generation a document shows, when it shows one. */
export function documentGeneration(dialect: DocumentDialect): PydanticGeneration | undefined {
  if (dialect.nullability === 'anyOf-null') return '2'
  return dialect.openapi.startsWith('3.0.') ? '1' : undefined
}

/** The FastAPI era, in words, from what was seen. */
export function fastApiEra(seen: { missingCredentialsStatus?: number; dialect?: DocumentDialect }): string | undefined {
  const clues: string[] = []
  const { missingCredentialsStatus: status, dialect } = seen
  if (dialect?.openapi.startsWith('3.0.')) clues.push(`<0.99 (OpenAPI ${dialect.openapi})`)
  if (status === 403) clues.push('≤0.121 (a missing token answers 403)')
  if (status === 401) clues.push('≥0.122 (a missing token answers 401)')
  if (dialect)
    clues.push(
      dialect.errorInputDeclared
        ? '≥0.128.1 (its 422 schema declares input/ctx)'
        : '≤0.128.0 (its 422 schema declares loc/msg/type only)',
    )
  return clues.length ? clues.join('; ') : undefined
}
