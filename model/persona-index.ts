import type { Persona } from './schemas.js'

/** One team's personas in list order, with the lowercased fields that search reads. */
export interface TeamPersonas {
  readonly ordered: readonly Persona[]
  /** name, description and role of each persona, lowercased: built on the team's first search, then kept. */
  readonly lowercase: () => LowercaseFields
}

/** Parallel to `ordered`: one array per field, rather than an array per persona (~70 bytes each). */
interface LowercaseFields {
  readonly names: readonly string[]
  readonly descriptions: readonly (string | null)[]
  readonly roles: readonly string[]
}

/** Groups personas by team, each group in list order: created_at descending, then id ascending. */
export function indexPersonas(records: readonly Persona[]): Map<string, TeamPersonas> {
  const groups = new Map<string, Persona[]>()
  for (const persona of records) {
    const group = groups.get(persona.team_id)
    if (group) group.push(persona)
    else groups.set(persona.team_id, [persona])
  }
  const index = new Map<string, TeamPersonas>()
  for (const [teamId, personas] of groups) {
    personas.sort(comparePersonas)
    let lowercase: LowercaseFields | undefined
    index.set(teamId, { ordered: personas, lowercase: () => (lowercase ??= lowercaseFields(personas)) })
  }
  return index
}

function lowercaseFields(personas: readonly Persona[]): LowercaseFields {
  const lower = sharedLowercase()
  return {
    names: personas.map((persona) => lower(persona.name)),
    descriptions: personas.map((persona) => (persona.description === null ? null : lower(persona.description))),
    roles: personas.map((persona) => lower(persona.role)),
  }
}

/**
 * `toLowerCase`, giving the same string for the same text: personas share many texts (roles,
 * descriptions), and a copy each would cost tens of megabytes at 100,000 personas a team.
 */
function sharedLowercase() {
  const seen = new Map<string, string>()
  return (text: string): string => {
    let lower = seen.get(text)
    if (lower === undefined) seen.set(text, (lower = text.toLowerCase()))
    return lower
  }
}

// Ids are lowercase hex UUIDs, so plain string order is Python's order for them.
const comparePersonas = (a: Persona, b: Persona) =>
  b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export interface PersonaFilter {
  intents?: readonly string[] | null | undefined
  isPreset?: boolean | null | undefined
  search?: string | null | undefined
}

/**
 * One page of a team's personas, as positions in its list order, and the count of all that
 * match. With no filter the page is a range of the index; otherwise matches are counted
 * without being copied.
 */
export function queryPersonas(team: TeamPersonas | undefined, filter: PersonaFilter, offset: number, limit: number) {
  if (!team) return { positions: [] as number[], total: 0 }
  const matches = matcher(filter, team)
  const count = team.ordered.length
  if (!matches) return { positions: range(Math.min(offset, count), Math.min(offset + limit, count)), total: count }
  const positions: number[] = []
  let total = 0
  team.ordered.forEach((persona, position) => {
    if (!matches(persona, position)) return
    if (total >= offset && positions.length < limit) positions.push(position)
    total++
  })
  return { positions, total }
}

const range = (start: number, end: number): number[] => Array.from({ length: end - start }, (_, index) => start + index)

function matcher(filter: PersonaFilter, team: TeamPersonas) {
  const intents = filter.intents == null ? undefined : new Set(filter.intents)
  const isPreset = filter.isPreset ?? undefined
  const needle = filter.search ? filter.search.toLowerCase() : undefined
  if (!intents && isPreset === undefined && needle === undefined) return undefined
  const { names, descriptions, roles } = needle === undefined ? NO_TEXT : team.lowercase()
  return (persona: Persona, position: number) =>
    (!intents || intents.has(persona.intent)) &&
    (isPreset === undefined || persona.is_preset === isPreset) &&
    (needle === undefined ||
      (names[position] as string).includes(needle) ||
      (roles[position] as string).includes(needle) ||
      (descriptions[position]?.includes(needle) ?? false))
}

const NO_TEXT: LowercaseFields = { names: [], descriptions: [], roles: [] }
