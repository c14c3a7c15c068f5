import type { Json } from '../client/crawl.js'

/** An order a list may be sorted in, and how to compare two records under it. */
export interface Ordering {
  name: string
  compare: (a: Json, b: Json) => number
}

const field = (record: Json, name: string) => record[name] as string | number
const ascending = (name: string) => (a: Json, b: Json) => compareValues(field(a, name), field(b, name))
const descending = (name: string) => (a: Json, b: Json) => -compareValues(field(a, name), field(b, name))
const then =
  (...comparisons: Array<(a: Json, b: Json) => number>) =>
  (a: Json, b: Json) =>
    comparisons.reduce((result, compare) => result || compare(a, b), 0)

function compareValues(a: string | number, b: string | number): number {
  if (a === b) return 0
  return a < b ? -1 : 1
}

/** The mock's order comes first: a list sorted several ways is reported as the mock's. */
export const PERSONA_ORDERINGS: readonly Ordering[] = [
  { name: 'created_at descending, then id ascending', compare: then(descending('created_at'), ascending('id')) },
  { name: 'created_at descending, then id descending', compare: then(descending('created_at'), descending('id')) },
  { name: 'created_at ascending, then id ascending', compare: then(ascending('created_at'), ascending('id')) },
  { name: 'updated_at descending, then id ascending', compare: then(descending('updated_at'), ascending('id')) },
  { name: 'name ascending', compare: ascending('name') },
  { name: 'id ascending', compare: ascending('id') },
]

/** The mock's rules order comes first, as for personas. */
export const RULE_ORDERINGS: readonly Ordering[] = [
  {
    name: 'created_at ascending, then rule_id ascending',
    compare: then(ascending('created_at'), ascending('rule_id')),
  },
  { name: 'created_at ascending, then id ascending', compare: then(ascending('created_at'), ascending('id')) },
  { name: 'rule_id ascending', compare: ascending('rule_id') },
  {
    name: 'created_at descending, then rule_id ascending',
    compare: then(descending('created_at'), ascending('rule_id')),
  },
  { name: 'id ascending', compare: ascending('id') },
]

/** The first ordering the records are sorted in, or undefined when none fits. */
export function detectOrdering(records: readonly Json[], orderings: readonly Ordering[]): Ordering | undefined {
  return orderings.find(({ compare }) =>
    records.every((record, index) => index === 0 || compare(records[index - 1]!, record) <= 0),
  )
}
