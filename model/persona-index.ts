import { pageRange } from './paging.js'
import type { Persona } from './schemas.js'

/** One team's personas in list order, with the lowercased fields that search reads. */
export interface TeamPersonas {
  readonly ordered: readonly Persona[]
  /** name, description and role of each persona, lowercased: built on the team's first search, then kept. */
  readonly lowercase: () => LowercaseFields
}

/** Parallel to `ordered`: one array per field, rather than an array per persona (one more object for each). */
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
  for (const [teamId, personas] of groups) index.set(teamId, teamPersonas(personas.sort(comparePersonas)))
  return index
}

/**
 * The index with one persona more: a new map, the persona's team a new list with the persona in
 * its place (a copy and a binary search, not a sort); the index given is left as it was, so a
 * fork that adds a persona to a team of 100,000 pays a copy of references.
 */
export function withPersona(index: Map<string, TeamPersonas>, persona: Persona): Map<string, TeamPersonas> {
  const ordered = [...(index.get(persona.team_id)?.ordered ?? [])]
  let low = 0
  let high = ordered.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (comparePersonas(ordered[middle] as Persona, persona) <= 0) low = middle + 1
    else high = middle
  }
  ordered.splice(low, 0, persona)
  return new Map(index).set(persona.team_id, teamPersonas(ordered))
}

function teamPersonas(ordered: readonly Persona[]): TeamPersonas {
  let lowercase: LowercaseFields | undefined
  return { ordered, lowercase: () => (lowercase ??= lowercaseFields(ordered)) }
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
 * match. With no filter the page is a range of the index; a filtered page is a range of the
 * filter's matches, found by one pass over the team and remembered for the next page.
 */
export function queryPersonas(team: TeamPersonas | undefined, filter: PersonaFilter, offset: number, limit: number) {
  if (!team) return { positions: [] as number[], total: 0 }
  const matches = matchingPositions(team, filter)
  if (!matches) return { positions: pageRange(team.ordered.length, offset, limit), total: team.ordered.length }
  return { positions: Array.from(matches.subarray(offset, offset + limit)), total: matches.length }
}

/**
 * Filters whose matches are remembered, per team: paging through a filtered list (what a
 * console does) then costs a page, not a pass over the team. The newest are kept; the
 * matches go with the team's index, which is rebuilt when the personas change.
 */
const REMEMBERED_FILTERS = 16
const REMEMBERED_FILTER_LENGTH = 1024
/** Keyed weakly by the team's index: a rebuilt index starts with none, and the old one's go with it. */
const rememberedFiltersCache = new WeakMap<TeamPersonas, Map<string, Int32Array>>()

/** The positions of the personas matching `filter`, in list order; undefined when nothing filters. */
function matchingPositions(team: TeamPersonas, filter: PersonaFilter): Int32Array | undefined {
  const criteria = criteriaOf(filter)
  if (!criteria) return undefined
  const key = JSON.stringify([
    criteria.intents ? [...criteria.intents].sort() : null,
    criteria.isPreset ?? null,
    criteria.needle ?? null,
  ])
  // A filter as long as a query string may be (a megabyte of search text) is not kept.
  if (key.length > REMEMBERED_FILTER_LENGTH) return scan(team, criteria)
  let byFilter = rememberedFiltersCache.get(team)
  if (!byFilter) rememberedFiltersCache.set(team, (byFilter = new Map()))
  let matches = byFilter.get(key)
  if (matches) byFilter.delete(key)
  else matches = scan(team, criteria)
  byFilter.set(key, matches)
  if (byFilter.size > REMEMBERED_FILTERS) byFilter.delete(byFilter.keys().next().value as string)
  return matches
}

interface Criteria {
  intents: ReadonlySet<string> | undefined
  isPreset: boolean | undefined
  /** The search text, lowercased. */
  needle: string | undefined
}

function criteriaOf(filter: PersonaFilter): Criteria | undefined {
  const intents = filter.intents == null ? undefined : new Set(filter.intents)
  const isPreset = filter.isPreset ?? undefined
  const needle = filter.search ? filter.search.toLowerCase() : undefined
  return !intents && isPreset === undefined && needle === undefined ? undefined : { intents, isPreset, needle }
}

function scan(team: TeamPersonas, { intents, isPreset, needle }: Criteria): Int32Array {
  const { names, descriptions, roles } = needle === undefined ? NO_TEXT : team.lowercase()
  const matches: number[] = []
  team.ordered.forEach((persona, position) => {
    if (
      (!intents || intents.has(persona.intent)) &&
      (isPreset === undefined || persona.is_preset === isPreset) &&
      (needle === undefined ||
        (names[position] as string).includes(needle) ||
        (roles[position] as string).includes(needle) ||
        (descriptions[position]?.includes(needle) ?? false))
    ) {
      matches.push(position)
    }
  })
  return Int32Array.from(matches)
}

const NO_TEXT: LowercaseFields = { names: [], descriptions: [], roles: [] }
