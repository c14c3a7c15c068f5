/**
 * References in place of ids: a recorded contract says `{{team 0}}` where the app sent the first team's id,
 * so that a replay can put a real server's team there. References are written `{{name}}` inside any string.
 */

/** The records whose ids become references, as a world lists them. */
export interface ReferencedRecords {
  teams: ReadonlyArray<{ id: string }>
  dimensions: ReadonlyArray<{ id: string }>
  policies: ReadonlyArray<{ id: string; team_id: string }>
}

/** Ids (lower case) to reference names (`team 0`, `policy 1 of team 0`, `dimension 0`). */
export type ReferenceTable = Pick<ReadonlyMap<string, string>, 'get'>

const REFERENCE = /\{\{([^{}]+)\}\}/g
const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g

/** What each kind of reference stands for, for the file's `references` and for replay's options. */
export function describeReference(name: string): string {
  if (/^team 0$/.test(name)) return 'the team the tokens are scoped to (verify --team-id)'
  if (/^policy 0 of team 0$/.test(name)) return "a policy of the tokens' team (verify --policy-id)"
  if (/^dimension 0$/.test(name)) return 'a demographic dimension (verify --dimension-id)'
  if (/ of interaction \d+$/.test(name)) return 'a record an earlier interaction of the same test created'
  return `another record (verify --ref "${name}=<id>")`
}

export function referenceTable(records: ReferencedRecords): Map<string, string> {
  const table = new Map<string, string>()
  for (const [i, team] of records.teams.entries()) table.set(team.id.toLowerCase(), `team ${i}`)
  for (const [i, dimension] of records.dimensions.entries()) table.set(dimension.id.toLowerCase(), `dimension ${i}`)
  const perTeam = new Map<string, number>()
  for (const policy of records.policies) {
    const k = perTeam.get(policy.team_id) ?? 0
    perTeam.set(policy.team_id, k + 1)
    const team = table.get(policy.team_id.toLowerCase()) ?? 'no team'
    table.set(policy.id.toLowerCase(), `policy ${k} of ${team}`)
  }
  return table
}

/**
 * The text with every id the table knows written as its reference (`{{team 0}}`); other text, unknown
 * ids included, as it was. `used` collects the references written.
 */
export function referTo(text: string, table: ReferenceTable, used?: Set<string>): string {
  return text.replace(UUID, (id) => {
    const name = table.get(id.toLowerCase())
    if (name === undefined) return id
    used?.add(name)
    return `{{${name}}}`
  })
}

/** A JSON value with {@link referTo} applied to every string in it (keys too). */
export function referToInJson(value: unknown, table: ReferenceTable, used?: Set<string>): unknown {
  return mapStrings(value, (text) => referTo(text, table, used))
}

/** The references a text names, in order. */
export const referencesIn = (text: string): string[] => [...text.matchAll(REFERENCE)].map((match) => match[1]!)

/**
 * The text with each reference replaced by what `resolve` gives for its name (the id of a real server's
 * record). `undefined` from `resolve` leaves the reference as it is (the caller reports it).
 */
export function resolveReferences(text: string, resolve: (name: string) => string | undefined): string {
  return text.replace(REFERENCE, (whole, name: string) => resolve(name) ?? whole)
}

export function resolveInJson(value: unknown, resolve: (name: string) => string | undefined): unknown {
  return mapStrings(value, (text) => resolveReferences(text, resolve))
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value)
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map)]))
}
