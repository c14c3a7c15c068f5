import type { DemographicValue } from './schemas.js'

/** One dimension's values, with what a bulk add needs to know without scanning them. */
export interface DimensionValues {
  readonly list: DemographicValue[]
  /** Every `value` string of the dimension, for duplicate checks. */
  readonly names: Set<string>
  /** The largest sort_order (undefined while the dimension is empty). */
  largest: number | bigint | undefined
}

export function indexValues(records: readonly DemographicValue[]): Map<string, DimensionValues> {
  const index = new Map<string, DimensionValues>()
  for (const record of records) appendValue(index, record)
  return index
}

/** Adds a created value to the index in place: O(1), so a bulk add never rescans. */
export function appendValue(index: Map<string, DimensionValues>, record: DemographicValue): void {
  let entry = index.get(record.dimension_id)
  if (!entry) index.set(record.dimension_id, (entry = { list: [], names: new Set(), largest: undefined }))
  entry.list.push(record)
  entry.names.add(record.value)
  entry.largest = larger(entry.largest, record.sort_order)
}

export const larger = (a: number | bigint | undefined, b: number | bigint): number | bigint =>
  a === undefined || b > a ? b : a
