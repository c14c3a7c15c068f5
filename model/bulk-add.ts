import { larger, type DimensionValues } from './dimension-values.js'
import type { Profile } from './profile.js'
import type { DemographicValue } from './schemas.js'
import type { World } from './world.js'

/** One validated item of a bulk add (pydantic's `DemographicValueCreate`). */
export interface NewValue {
  value: string
  display_name: string | null
  metadata: object
  sort_order: number | bigint | null
}

export type BulkAddResult = { added: DemographicValue[] } | { duplicates: string[] }

/**
 * Adds values to a dimension, all in one write, created at `now` (whole Unix seconds: the
 * instance's clock). A value already in the dimension, or
 * repeated earlier in the request, is a duplicate: skipped (`skip`), the reason nothing
 * is added (`reject`), or stored like any other (`store`). A missing display_name is the value; a
 * missing sort_order is the largest in the dimension plus one, item by item in request order (0 in
 * an empty dimension).
 */
export function addValues(
  world: World,
  dimensionId: string,
  items: readonly NewValue[],
  duplicates: Profile['bulkDuplicates'],
  now: number,
): Promise<BulkAddResult> {
  return world.exclusive(async () => {
    const existing = world.valuesByDimension().get(dimensionId)
    const { planned, repeated } = plan(dimensionId, existing, items, now, duplicates === 'store')
    if (duplicates === 'reject' && repeated.length) return { duplicates: repeated }
    return { added: await world.values.createAll(planned) }
  })
}

function plan(
  dimensionId: string,
  existing: DimensionValues | undefined,
  items: readonly NewValue[],
  createdAt: number,
  storeRepeats: boolean,
) {
  const stored = existing?.names ?? new Set<string>()
  const seen = new Set<string>()
  let largest = existing?.largest
  const planned: DemographicValue[] = []
  const repeated: string[] = []
  for (const item of items) {
    if (!storeRepeats && (stored.has(item.value) || seen.has(item.value))) {
      if (!repeated.includes(item.value)) repeated.push(item.value)
      continue
    }
    seen.add(item.value)
    const sortOrder = item.sort_order ?? successor(largest)
    largest = larger(largest, sortOrder)
    planned.push({
      id: crypto.randomUUID(),
      dimension_id: dimensionId,
      value: item.value,
      created_at: createdAt,
      display_name: item.display_name ?? item.value,
      value_metadata: item.metadata,
      sort_order: sortOrder,
    })
  }
  return { planned, repeated }
}

/** max + 1, exact past 2^53 (a Python int never overflows). */
export function successor(largest: number | bigint | undefined): number | bigint {
  if (largest === undefined) return 0
  if (typeof largest === 'bigint') return largest + 1n
  return Number.isSafeInteger(largest + 1) ? largest + 1 : BigInt(largest) + 1n
}
