import type { Persona } from './schemas.js'

/** One team's personas in list order, with the lowercased fields that search reads. */
export interface TeamPersonas {
  readonly ordered: readonly Persona[]
  readonly searchable: readonly SearchableFields[]
}

/** name, description and role, lowercased once (not per request). */
type SearchableFields = readonly [string, string | null, string]

/** Groups personas by team, each group in list order: created_at descending, then id ascending. */
export function indexPersonas(records: readonly Persona[]): Map<string, TeamPersonas> {
  const groups = new Map<string, Persona[]>()
  for (const persona of records) {
    const group = groups.get(persona.team_id)
    if (group) group.push(persona)
    else groups.set(persona.team_id, [persona])
  }
  const index = new Map<string, TeamPersonas>()
  const lower = sharedLowercase()
  for (const [teamId, personas] of groups) {
    personas.sort(comparePersonas)
    index.set(teamId, {
      ordered: personas,
      searchable: personas.map((p) => [lower(p.name), p.description === null ? null : lower(p.description), lower(p.role)] as const),
    })
  }
  return index
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
 * One page of a team's personas and the count of all that match. With no filter the page is
 * a slice of the index; otherwise matches are counted without being copied.
 */
export function queryPersonas(team: TeamPersonas | undefined, filter: PersonaFilter, offset: number, limit: number) {
  if (!team) return { results: [] as Persona[], total: 0 }
  const matches = matcher(filter)
  if (!matches) return { results: team.ordered.slice(offset, offset + limit), total: team.ordered.length }
  const results: Persona[] = []
  let total = 0
  team.ordered.forEach((persona, position) => {
    if (!matches(persona, team.searchable[position] as SearchableFields)) return
    if (total >= offset && results.length < limit) results.push(persona)
    total++
  })
  return { results, total }
}

function matcher(filter: PersonaFilter) {
  const intents = filter.intents == null ? undefined : new Set(filter.intents)
  const isPreset = filter.isPreset ?? undefined
  const needle = filter.search ? filter.search.toLowerCase() : undefined
  if (!intents && isPreset === undefined && needle === undefined) return undefined
  return (persona: Persona, [name, description, role]: SearchableFields) =>
    (!intents || intents.has(persona.intent)) &&
    (isPreset === undefined || persona.is_preset === isPreset) &&
    (needle === undefined || name.includes(needle) || role.includes(needle) || (description?.includes(needle) ?? false))
}
