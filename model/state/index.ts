import { z } from 'zod'
import { MAX_PERSONAS_PER_TEAM } from '../world-bounds.js'
import { decodeJsonBody, MAX_JSON_DEPTH } from '../../fastapi/python/json-decode.js'
import { encodePythonJson } from '../../fastapi/python/json-encode.js'
import { PyDict, PyFloat, type PyValue } from '../../fastapi/python/value.js'
import { DemographicDimension, DemographicValue, Persona, Policy, PolicyRule, Team } from '../schemas.js'
import type { WorldContents } from '../world.js'
import type { DocumentedContents } from '../documented.js'

export const STATE_FORMAT = 'agent-console-mock/state'
export const STATE_VERSION = 1

/**
 * How deep a state (and a line of the state file's log) may nest: as deep as any body the API
 * and the control API take (a record's field holds what a body nested at most {@link MAX_JSON_DEPTH}
 * deep), plus the levels a state wraps a record's fields in (the document, `world`, the collection's
 * array, the record). Whatever was answered 2xx can be loaded again.
 */
export const STATE_JSON_DEPTH = MAX_JSON_DEPTH + 4

/** A whole world as a state file holds it. */
export interface WorldState {
  seed: number
  personasPerTeam: number
  /**
   * The records were read from a server (`agent-console-mock import`), not seeded: the seed and size only make the
   * fixture tokens and the ids of records added later, and starts and banners say so instead of naming them.
   */
  imported?: true
  contents: WorldContents
  /** The records of a served OpenAPI document's collections, where any were written. */
  documented?: DocumentedContents
}

/**
 * A state that cannot be read: not JSON, not a state file, values out of the options' bounds, records that do not
 * fit the schemas or that contradict each other.
 */
export class StateError extends Error {
  override name = 'StateError'
}

/** A state file's schema (the records' schemas inside). */
/**
 * zod's records leave a `__proto__` key out (against prototype pollution), so a served collection of that name
 * would be dropped unseen where any other name no served document declares is refused: it is refused here.
 */
function noProtoKey(check: z.core.ParsePayload<unknown>): void {
  const { value } = check
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__'))
    check.issues.push({
      code: 'custom',
      path: ['__proto__'],
      message: 'no served collection is named __proto__',
      input: value,
    })
}

export const StateFile = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  // A safe integer (z.int()), as `--seed` and createWorld take; resets and new sessions are seeded with both.
  seed: z.int(),
  personasPerTeam: z.int().min(0).max(MAX_PERSONAS_PER_TEAM),
  imported: z.literal(true).optional(),
  world: z.object({
    teams: z.array(Team),
    personas: z.array(Persona),
    dimensions: z.array(DemographicDimension),
    values: z.array(DemographicValue),
    policies: z.array(Policy),
    rules: z.array(PolicyRule),
  }),
  /** A served OpenAPI document's records, by collection path: plain JSON, checked against the document when read. */
  documented: z
    .unknown()
    .check(noProtoKey)
    .pipe(z.record(z.string(), z.array(z.record(z.string(), z.unknown()))))
    .optional(),
})

/**
 * Writes a world as JSON with Python's number rules, so metadata floats, big ints and key
 * order survive a round trip exactly.
 */
export function serializeState(state: WorldState): string {
  return encodePythonJson({
    ...headerOf(state),
    world: state.contents,
    ...documentedMember(state),
  })
}

/**
 * Reads and validates a state file.
 * @throws StateError saying what is wrong and where (at most five problems listed).
 */
export function parseState(text: string): WorldState {
  const decoded = decodeJsonBody(new TextEncoder().encode(text), STATE_JSON_DEPTH)
  if (!decoded.ok) {
    throw new StateError(
      decoded.kind === 'json'
        ? `the state is not valid JSON: ${decoded.msg} at character ${decoded.pos}`
        : 'the state is not valid JSON',
    )
  }
  const plain = toPlain(decoded.value) as { format?: unknown }
  if (plain === null || typeof plain !== 'object' || plain.format !== STATE_FORMAT) {
    throw new StateError(`this is not an agent-console-mock state (expected "format": "${STATE_FORMAT}")`)
  }
  const parsed = StateFile.safeParse(plain)
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new StateError(`the state does not fit the schemas: ${problems.join('; ')}`)
  }
  const { world, documented } = parsed.data
  refuseContradictions(runToEnd(findContradictions(world as WorldContents)))
  return { ...originOf(parsed.data), contents: world as WorldContents, ...(documented && { documented }) }
}

/** What a state says of its world's making: its seed and size, and whether it was imported. */
export const originOf = ({
  seed,
  personasPerTeam,
  imported,
}: Pick<WorldState, 'seed' | 'personasPerTeam' | 'imported'>): Pick<
  WorldState,
  'seed' | 'personasPerTeam' | 'imported'
> => ({ seed, personasPerTeam, ...(imported && { imported }) })

/** The members a state file starts with, in their order. */
export const headerOf = (state: WorldState) => ({
  format: STATE_FORMAT,
  version: STATE_VERSION,
  ...originOf(state),
})

/** The state file's `documented` member: only where a served document's collection was written. */
export const documentedMember = ({ documented }: WorldState): { documented?: DocumentedContents } =>
  documented && Object.keys(documented).length > 0 ? { documented } : {}

/** @throws StateError naming the contradictions found, if any */
export function refuseContradictions(contradictions: readonly string[]): void {
  if (contradictions.length > 0) throw new StateError(`the records contradict each other: ${contradictions.join('; ')}`)
}

/** Runs a generator to its end at once: its value. */
function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * What no world of the service could hold: two records of a kind with one id, a persona or a policy of a team that
 * does not exist, a value of an unknown dimension or one its dimension has already (bulk adds skip or refuse those),
 * a rule of an unknown policy, metadata that is not a JSON object the API could write back (no NaN or infinity).
 * A few passes over the records with maps: little next to parsing the state.
 * @returns at most five problems, each with its path
 */
export function* findContradictions(world: WorldContents): Generator<void, string[]> {
  const problems: string[] = []
  const report = (path: string, problem: string) => void (problems.length < 5 && problems.push(`${path}: ${problem}`))
  // Pauses after every record (a caller may give the event loop back there).
  function* idsOf(name: keyof WorldContents, first = new Map<string, number>()): Generator<void, Map<string, number>> {
    for (const [i, { id }] of world[name].entries()) {
      const seen = first.get(id)
      if (seen === undefined) first.set(id, i)
      else report(`world.${name}.${i}.id`, `the id of world.${name}.${seen} again`)
      yield
    }
    return first
  }
  const teams = yield* idsOf('teams')
  const dimensions = yield* idsOf('dimensions')
  const policies = yield* idsOf('policies')
  yield* idsOf('personas')
  yield* idsOf('values')
  yield* idsOf('rules')
  function* refer(name: keyof WorldContents, key: string, ids: Map<string, number>, kind: string) {
    for (const [i, record] of world[name].entries()) {
      const id = (record as unknown as Record<string, string>)[key] as string
      if (!ids.has(id)) report(`world.${name}.${i}.${key}`, `no ${kind} has the id ${id}`)
      yield
    }
  }
  yield* refer('personas', 'team_id', teams, 'team')
  yield* refer('policies', 'team_id', teams, 'team')
  yield* refer('rules', 'policy_id', policies, 'policy')
  yield* refer('values', 'dimension_id', dimensions, 'dimension')
  // A value twice in its dimension is taken: a profile with `bulkDuplicates: 'store'` stores it so.
  for (const [i, { value_metadata }] of world.values.entries()) {
    if (!(value_metadata instanceof PyDict) || !isFiniteJson(value_metadata)) {
      report(`world.values.${i}.value_metadata`, 'not a JSON object of finite numbers')
    }
    yield
  }
  return problems
}

/** No NaN or infinity anywhere inside (FastAPI could not write it; pydantic refuses it on the way in). */
function isFiniteJson(value: PyValue): boolean {
  if (value instanceof PyFloat) return Number.isFinite(value.value)
  if (Array.isArray(value)) return value.every(isFiniteJson)
  return value instanceof PyDict ? [...value.values()].every(isFiniteJson) : true
}

/**
 * Python values to the records' plain JS shapes. `value_metadata` stays a Python dict:
 * it is free-form data whose key order and number types the API writes back as they came.
 */
export function toPlain(value: PyValue): unknown {
  if (value instanceof PyFloat) return value.value
  if (Array.isArray(value)) return value.map(toPlain)
  if (value instanceof PyDict) {
    return Object.fromEntries([...value].map(([key, item]) => [key, key === 'value_metadata' ? item : toPlain(item)]))
  }
  return value
}
