import type { Json } from '../client/crawl.js'
import { parseState, serializeState, StateError, type WorldState } from '../../model/state/index.js'
import { ImportError } from './crawl.js'

/**
 * The seed and size an imported state names (marked `imported`: banners say so instead of naming them). Resets go
 * back to the server's configured world, never to these; they are the CLI's defaults, so `agent-console-mock
 * --state-file out.json` starts without a note. The seed also makes the fixture tokens (their `sub`), as for any state.
 */
const IMPORTED_SEED = 1
const IMPORTED_PERSONAS_PER_TEAM = 60

/** What the crawl read, by the ids it was given. */
export interface ImportedRecords {
  teams: Array<{ id: string; personas: Json[] }>
  /** Each policy with its team (the API does not say which team owns a policy: the caller decides). */
  policies: Array<{ id: string; teamId: string; rules: Json[] }>
  dimensionIds: string[]
  /** The server's timestamp unit (its profile): the state holds seconds. */
  timestampUnit: 's' | 'ms'
}

const RULE_TIMES = ['created_at', 'updated_at', 'reviewed_at'] as const
const PERSONA_TIMES = ['created_at', 'updated_at'] as const

/**
 * The state file of what was read: the records as the server sent them (fields the mock does not know are
 * dropped by the schemas), and the team, policy and dimension records the API cannot read, made up with
 * placeholder names and timestamps taken from the records. Validated by `parseState` as the mock will read it.
 * @throws ImportError naming the records that do not fit the mock's schemas.
 */
export function buildState(read: ImportedRecords): string {
  const seconds = (value: unknown) =>
    read.timestampUnit === 'ms' && typeof value === 'number' ? Math.floor(value / 1000) : value
  const rescale = (record: Json, fields: readonly string[]) => {
    const copy = { ...record }
    for (const field of fields) if (field in copy) copy[field] = seconds(copy[field])
    return copy
  }
  const personas = read.teams.flatMap((team) => team.personas.map((p) => rescale(p, PERSONA_TIMES)))
  const rules = read.policies.flatMap((policy) => policy.rules.map((r) => rescale(r, RULE_TIMES)))
  // Records without a usable time (the schemas refuse them later, with their paths) do not count.
  const start = extreme([...personas, ...rules], 'created_at', Math.min) ?? 0
  const world = {
    teams: read.teams.map(({ id }) => ({
      id,
      name: `Imported team ${id}`,
      created_at: extreme(recordsOf(personas, 'team_id', id), 'created_at', Math.min) ?? start,
    })),
    personas,
    dimensions: read.dimensionIds.map((id) => ({
      id,
      name: `Imported dimension ${id}`,
      description: 'Not read from the server: the API cannot list dimensions nor their values.',
      created_at: start,
    })),
    values: [],
    policies: read.policies.map(({ id, teamId }) => {
      const own = recordsOf(rules, 'policy_id', id)
      const created = extreme(own, 'created_at', Math.min) ?? start
      const updated = Math.max(created, extreme(own, 'updated_at', Math.max) ?? created)
      return {
        id,
        team_id: teamId,
        name: `Imported policy ${id}`,
        description: null,
        created_at: created,
        updated_at: updated,
      }
    }),
    rules,
  }
  const state = { seed: IMPORTED_SEED, personasPerTeam: IMPORTED_PERSONAS_PER_TEAM, imported: true, contents: world }
  return validated(serializeState(state as unknown as WorldState))
}

/** The records whose `key` is `id`. */
const recordsOf = (records: Json[], key: string, id: string) => records.filter((record) => record[key] === id)

/** The smallest (or largest) integer of a field, without spreading 200,000 arguments. */
function extreme(records: Json[], field: string, pick: (a: number, b: number) => number): number | undefined {
  let found: number | undefined
  for (const record of records) {
    const value = record[field]
    if (Number.isSafeInteger(value)) found = found === undefined ? (value as number) : pick(found, value as number)
  }
  return found
}

/** The state as the mock reads it (defaults filled in, unknown fields dropped), written again. */
function validated(text: string): string {
  try {
    return serializeState(parseState(text))
  } catch (error) {
    if (!(error instanceof StateError)) throw error
    throw new ImportError(
      `The records read are not a world the mock can hold, so nothing was written: ${error.message}.`,
    )
  }
}
