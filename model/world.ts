import { DemographicDimension, DemographicValue, Persona, Policy, PolicyRule, Team } from './schemas.js'
import { derived, TrackedCollection } from './tracked-collection.js'
import { appendValue, indexValues, type DimensionValues } from './dimension-values.js'
import { indexPersonas, type TeamPersonas } from './persona-index.js'

/**
 * The mock's whole state: one @msw/data collection per record type, built from the record
 * schemas, and the indexes the operations read, kept in step with the collections.
 * Handlers never scan a collection per request; they read an index.
 */
export class World {
  readonly teams = new TrackedCollection({ schema: Team })
  readonly personas = new TrackedCollection({ schema: Persona })
  readonly dimensions = new TrackedCollection({ schema: DemographicDimension })
  readonly values = new TrackedCollection({ schema: DemographicValue })
  readonly policies = new TrackedCollection({ schema: Policy })
  readonly rules = new TrackedCollection({ schema: PolicyRule })

  /** Personas by team, in list order (created_at descending, then id ascending). */
  readonly personasByTeam: () => Map<string, TeamPersonas> = derived(this.personas, indexPersonas)
  readonly dimensionById: () => Map<string, DemographicDimension> = derived(this.dimensions, (records) =>
    byKey(records, (dimension) => dimension.id),
  )
  readonly policyById: () => Map<string, Policy> = derived(this.policies, (records) =>
    byKey(records, (policy) => policy.id),
  )
  /** Rules by policy, in list order (created_at ascending, then rule_id ascending). */
  readonly rulesByPolicy: () => Map<string, PolicyRule[]> = derived(this.rules, (records) =>
    groupSorted(records, (rule) => rule.policy_id, compareRules),
  )
  /** Values by dimension, in storage order, with their names and largest sort order. */
  readonly valuesByDimension: () => Map<string, DimensionValues> = derived(this.values, indexValues, appendValue)

  #writes: Promise<unknown> = Promise.resolve()

  constructor(readonly seed: number) {}

  /**
   * Runs a write with no other write of this world in between, so that concurrent bulk adds
   * each see the others' values (no duplicate, no lost value, unique sort orders).
   */
  exclusive<T>(write: () => Promise<T>): Promise<T> {
    const result = this.#writes.then(write)
    this.#writes = result.catch(() => undefined)
    return result
  }

  /**
   * Stores records in the (empty) collections, validating each against its schema.
   * @example await new World(1).load(buildContents())
   */
  async load(contents: WorldContents): Promise<this> {
    await this.teams.createAll(contents.teams)
    await this.personas.createAll(contents.personas)
    await this.dimensions.createAll(contents.dimensions)
    await this.values.createAll(contents.values)
    await this.policies.createAll(contents.policies)
    await this.rules.createAll(contents.rules)
    return this
  }

  /** Every record, collection by collection, in storage order: what a snapshot holds. */
  contents(): WorldContents {
    return {
      teams: this.teams.all(),
      personas: this.personas.all(),
      dimensions: this.dimensions.all(),
      values: this.values.all(),
      policies: this.policies.all(),
      rules: this.rules.all(),
    }
  }
}

export interface WorldContents {
  teams: Team[]
  personas: Persona[]
  dimensions: DemographicDimension[]
  values: DemographicValue[]
  policies: Policy[]
  rules: PolicyRule[]
}

const byKey = <T>(records: readonly T[], key: (record: T) => string) =>
  new Map(records.map((record) => [key(record), record]))

function groupSorted<T>(records: readonly T[], key: (record: T) => string, compare: (a: T, b: T) => number) {
  const groups = new Map<string, T[]>()
  for (const record of records) {
    const group = groups.get(key(record))
    if (group) group.push(record)
    else groups.set(key(record), [record])
  }
  for (const group of groups.values()) group.sort(compare)
  return groups
}

const compareRules = (a: PolicyRule, b: PolicyRule) => a.created_at - b.created_at || compareText(a.rule_id, b.rule_id)

/** Python's string order: by code point (JS `<` compares UTF-16 units, which differs past U+FFFF). */
function compareText(a: string, b: string): number {
  if (a === b) return 0
  const left = [...a]
  const right = [...b]
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = (left[i] as string).codePointAt(0)! - (right[i] as string).codePointAt(0)!
    if (diff !== 0) return diff
  }
  return left.length - right.length
}
