import { z } from 'zod'
import { decodeJsonBody } from '../python/json-decode.js'
import { encodePythonJson } from '../python/json-encode.js'
import { PyDict, PyFloat, type PyValue } from '../python/value.js'
import { DemographicDimension, DemographicValue, Persona, Policy, PolicyRule, Team } from '../model/schemas.js'
import type { WorldContents } from '../model/world.js'

export const STATE_FORMAT = 'agent-console-mock/state'
export const STATE_VERSION = 1

/** A whole world as a state file holds it. */
export interface WorldState {
  seed: number
  personasPerTeam: number
  contents: WorldContents
}

/** A state that cannot be read: not JSON, not a state file, or records that do not fit the schemas. */
export class StateError extends Error {
  override name = 'StateError'
}

const StateFile = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  seed: z.int(),
  personasPerTeam: z.int().min(0),
  world: z.object({
    teams: z.array(Team),
    personas: z.array(Persona),
    dimensions: z.array(DemographicDimension),
    values: z.array(DemographicValue),
    policies: z.array(Policy),
    rules: z.array(PolicyRule),
  }),
})

/**
 * Writes a world as JSON with Python's number rules, so metadata floats, big ints and key
 * order survive a round trip exactly.
 */
export function serializeState(state: WorldState): string {
  return encodePythonJson({
    format: STATE_FORMAT,
    version: STATE_VERSION,
    seed: state.seed,
    personasPerTeam: state.personasPerTeam,
    world: state.contents,
  })
}

/**
 * Reads and validates a state file.
 * @throws StateError saying what is wrong and where (at most five problems listed).
 */
export function parseState(text: string): WorldState {
  const decoded = decodeJsonBody(new TextEncoder().encode(text))
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
  const { seed, personasPerTeam, world } = parsed.data
  return { seed, personasPerTeam, contents: world as WorldContents }
}

/**
 * Python values to the records' plain JS shapes. `value_metadata` stays a Python dict:
 * it is free-form data whose key order and number types the API writes back as they came.
 */
function toPlain(value: PyValue): unknown {
  if (value instanceof PyFloat) return value.value
  if (Array.isArray(value)) return value.map(toPlain)
  if (value instanceof PyDict) {
    return Object.fromEntries([...value].map(([key, item]) => [key, key === 'value_metadata' ? item : toPlain(item)]))
  }
  return value
}
