import type { Claims } from '../../model/auth/claims.js'
import type { Outcome } from '../../fastapi/http/reply.js'
import { OPERATION_NAMES, type OperationName } from '../../model/api/routes.js'
import type { Profile } from '../../model/profile.js'
import type { World } from '../../model/world.js'
import { PyDict, PyFloat } from '../../fastapi/python/value.js'
import { InvalidOverrideError, prepareAnswer, type PreparedAnswer } from './answer.js'
import { walkJson } from '../instance/memory-budget.js'
import type { OperationOverride, OverrideFunction } from './types.js'

/**
 * One operation's override: prepared once (a status and body, an error shape), or a function run per request;
 * `bytes`, what it holds ({@link overrideBytes}).
 */
type Entry =
  | { kind: 'answer'; answer: PreparedAnswer; listed: unknown; bytes: number }
  | { kind: 'function'; run: OverrideFunction<OperationName>; listed: unknown; bytes: number }

/** What an override costs besides its body: the entry, its prepared answer's objects, the operation's name. */
const ENTRY_BYTES = 1024

/** What each value of a body costs on the heap besides its characters: an object, an array, a slot, a number. */
const VALUE_BYTES = 80

/**
 * What keeping an override set as `listed` holds: its body's characters twice (as set, and as the answer prepared
 * from it), each of its values (a body of 300,000 empty objects is 1 MB of JSON and ~25 MB of heap), and the
 * entry. An estimate, the same in every run, so a memory budget can count it.
 */
export const overrideBytes = (listed: unknown): number =>
  ENTRY_BYTES +
  2 * (JSON.stringify(listed, (_, value) => (typeof value === 'bigint' ? String(value) : value))?.length ?? 0) +
  VALUE_BYTES * valuesIn(listed)

/** How many values a JSON-like value holds, itself included. */
function valuesIn(value: unknown): number {
  let count = 0
  walkJson(value, () => (count++, true))
  return count
}

/**
 * The typed overrides of one instance (a Node mock, a page's worker, a Playwright test's world, a session of
 * the standalone server), by operation: one each, the last set wins. They belong to the instance, not to its
 * world: a reset of the world keeps them, `resetHandlers()` and `DELETE /__mock/overrides` drop them.
 */
export class OperationOverrides {
  /** The override of each overridden operation (the API's own by endpoint name, a served one's by its name). */
  readonly #byOperation = new Map<string, Entry>()
  #bytes = 0
  /** Told how much {@link bytes} moved by, after each change (a memory budget's running total). */
  onBytes: ((delta: number) => void) | undefined

  /** An estimate of the heap the overrides hold (what a memory budget counts). */
  get bytes(): number {
    return this.#bytes
  }

  /**
   * Answers `operation` with `override` from now on, after authentication and validation.
   * A status and body or an error shape is checked at once; a function's result, per request (one FastAPI
   * could not answer is a 500, as its response validation gives, and is reported).
   * @throws InvalidOverrideError for an unknown operation, or a status or body the operation cannot answer
   */
  set<Op extends OperationName>(operation: Op, override: OperationOverride<Op>): void {
    if (!(OPERATION_NAMES as readonly string[]).includes(operation))
      throw new InvalidOverrideError(String(operation), [`no such operation; known: ${OPERATION_NAMES.join(', ')}`])
    this.#replace(operation, entryOf(operation, override))
  }

  /**
   * Answers a served document's operation (docs/openapi.md) with an answer prepared for it (`listed`: what
   * was set, as `GET /__mock/overrides` shows it), after authentication and validation.
   */
  setPrepared(operation: string, answer: PreparedAnswer, listed: unknown): void {
    this.#replace(operation, { kind: 'answer', answer, listed, bytes: overrideBytes(listed) })
  }

  /** Drops the override of `operation`, or all of them; whether one was set. */
  clear(operation?: string): boolean {
    const dropped = operation === undefined ? [...this.#byOperation.keys()] : [operation]
    const had = dropped.filter((name) => this.#byOperation.has(name))
    for (const name of had) this.#replace(name, undefined)
    return had.length > 0
  }

  /** Whether the operation is answered by a typed override. */
  has(operation: string): boolean {
    return this.#byOperation.has(operation)
  }

  /** The overrides as JSON: what was set (a function as `{"function": name}`), by operation, the API's own first. */
  list(): Record<string, unknown> {
    const own = (name: string) => (OPERATION_NAMES as readonly string[]).includes(name)
    const names = [...OPERATION_NAMES, ...[...this.#byOperation.keys()].filter((name) => !own(name))]
    return Object.fromEntries(
      names.flatMap((name) => {
        const entry = this.#byOperation.get(name)
        return entry ? [[name, entry.listed]] : []
      }),
    )
  }

  /** Puts `entry` in the place of the operation's override (undefined: none), counting what each holds. */
  #replace(operation: string, entry: Entry | undefined): void {
    const delta = (entry?.bytes ?? 0) - (this.#byOperation.get(operation)?.bytes ?? 0)
    if (entry) this.#byOperation.set(operation, entry)
    else this.#byOperation.delete(operation)
    this.#bytes += delta
    this.onBytes?.(delta)
  }

  /**
   * The operation's `intercept` for one request: the override's answer in place of the operation's,
   * given the request as parsed; `undefined` when the operation has none.
   */
  hook(
    operation: string,
    { world, request, profile }: { world: World; request: Request; profile: Profile },
  ): ((parsed: Parsed) => Promise<Outcome>) | undefined {
    const entry = this.#byOperation.get(operation)
    if (!entry) return undefined
    if (entry.kind === 'answer') return async () => entry.answer(profile)
    return async (parsed) => {
      const { query, params, body } = plain(parsed) as Omit<Parsed, 'claims'>
      const result = await entry.run({ query, params, body, claims: parsed.claims, world, request } as never)
      return prepareAnswer(operation as OperationName, result)(profile)
    }
  }
}

/** A function kept to run per request; a status and body or an error shape prepared once. */
const entryOf = <Op extends OperationName>(operation: Op, override: OperationOverride<Op>): Entry =>
  typeof override === 'function'
    ? {
        kind: 'function',
        run: override as unknown as OverrideFunction<OperationName>,
        listed: { function: override.name || 'anonymous' },
        bytes: ENTRY_BYTES,
      }
    : { kind: 'answer', answer: prepareAnswer(operation, override), listed: override, bytes: overrideBytes(override) }

/** What an operation has parsed of a request (core/operation.ts's `ParsedRequest`). */
interface Parsed {
  query: Record<string, unknown>
  params: Record<string, unknown>
  body: unknown
  claims: Claims
}

/** Validated values as JavaScript holds JSON: Python's ints as numbers, floats and dicts unwrapped. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (value instanceof PyFloat) return value.value
  if (value instanceof PyDict) return Object.fromEntries([...value].map(([key, item]) => [key, plain(item)]))
  if (Array.isArray(value)) return value.map(plain)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]))
  return value
}
