import { isRecord, type Json, sameId } from '../client/crawl.js'
import { sameJson } from '../checks/expectations.js'
import type { JudgedProfile, ReadRequest, Violation } from './types.js'

/**
 * The bulk add's answer against what was sent: one record per value added, in request order, each with the
 * value, display name (the value when none was sent), metadata and sort order sent, in the path's dimension.
 * With `bulkDuplicates: skip` a value already there is left out, which one answer cannot tell from a value
 * lost; so there the answer need only hold the sent items in order, and with `reject` or `store` every one
 * of them. A value is answered twice only where duplicates are stored again, or the profile does not say.
 */
export function judgeBulkValues(request: ReadRequest, body: unknown, profile: JudgedProfile): Violation[] {
  const sent = (request.requestBody as { values?: unknown } | undefined)?.values
  if (!Array.isArray(sent) || !sent.every(isRecord)) return []
  const answered = body as Json[]
  const dimensionId = request.params['dimension_id']
  const violations: Violation[] = []
  const elsewhere = answered.filter((value) => !sameId(value['dimension_id'], dimensionId))
  if (elsewhere.length)
    violations.push({
      check: 'bulk.records',
      message: `${elsewhere.length} values of another dimension than ${String(dimensionId)}`,
    })
  // A value repeated in one request is a duplicate of the first: skipped, the request refused, or stored again.
  const choice = profile.bulkDuplicatesNamed ? profile.bulkDuplicates : 'store'
  const repeated = answered.filter(
    (value, index) => answered.findIndex((other) => other['value'] === value['value']) < index,
  )
  if (repeated.length && choice !== 'store')
    violations.push({
      check: 'bulk.duplicates',
      message: `${repeated.length} values answered twice (${repeated[0]!['value']})`,
    })
  const unmatched = unmatchedValues(sent, answered)
  if (unmatched !== undefined) violations.push({ check: 'bulk.records', message: `answered value ${unmatched}` })
  else if (profile.bulkDuplicatesNamed && choice !== 'skip' && answered.length !== sent.length)
    violations.push({ check: 'bulk.records', message: `${answered.length} values answered for ${sent.length} sent` })
  return violations
}

/** Walks the answer along the items sent (skipping those left out); says which answered value fits none. */
function unmatchedValues(sent: Json[], answered: Json[]): string | undefined {
  let next = 0
  for (const [index, value] of answered.entries()) {
    while (next < sent.length && !matches(sent[next]!, value)) next += 1
    if (next === sent.length)
      return `#${index} (${JSON.stringify(value['value'])}): not one of the items sent, in order`
    next += 1
  }
  return undefined
}

function matches(item: Json, value: Json): boolean {
  const displayName = item['display_name'] ?? item['value']
  const sortOrder = item['sort_order']
  return (
    value['value'] === item['value'] &&
    value['display_name'] === displayName &&
    sameJson(value['value_metadata'], item['metadata'] ?? {}) &&
    (typeof sortOrder !== 'number' || !Number.isSafeInteger(sortOrder) || value['sort_order'] === sortOrder)
  )
}
