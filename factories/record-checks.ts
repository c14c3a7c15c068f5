import type { World } from '../model/world.js'
import type { RecordCollection } from './defaults.js'

/** Why a record is not valid: the field (`team_id`, `consequence.severity`, `[2].value`) and the reason. */
export interface RecordProblem {
  path: string
  message: string
}

type Checked = { id: string } & Record<string, unknown>

/**
 * What the schemas cannot see: references to records that do not exist, an id twice, a value its
 * dimension has already, metadata the API could not write back. The same rules a state import
 * enforces (model/state/index.ts), so a world the factories made can always be exported and imported.
 * With `storedIds` (the ids of the collection), the records are about to be stored: their ids and
 * values are checked against the world's too.
 * @returns the problems, each with the index of its record
 */
export function findProblems(
  world: World,
  collection: RecordCollection,
  records: readonly object[],
  storedIds?: Pick<ReadonlySet<string>, 'has'>,
): Array<RecordProblem & { index: number }> {
  const problems: Array<RecordProblem & { index: number }> = []
  const report = (index: number, path: string, message: string) => problems.push({ index, path, message })
  const exists = referenceCheck(world, collection)
  const ids = new Map<string, number>()
  const values = new Map<string, number>()
  ;(records as Checked[]).forEach((record, index) => {
    const earlier = ids.get(record.id)
    if (earlier !== undefined) report(index, 'id', `the id of item ${earlier} again`)
    if (storedIds?.has(record.id)) report(index, 'id', `a record of ${collection} has this id already`)
    ids.set(record.id, index)
    if (exists && !exists.test(record[exists.field] as string)) {
      report(index, exists.field, `no ${exists.kind} has the id ${String(record[exists.field])}`)
    }
    if (collection !== 'values') return
    const key = `${String(record.dimension_id)}:${String(record.value)}`
    const repeated = values.get(key)
    if (repeated !== undefined) report(index, 'value', `item ${repeated} adds this value to this dimension already`)
    values.set(key, index)
    if (
      storedIds &&
      world
        .valuesByDimension()
        .get(record.dimension_id as string)
        ?.names.has(record.value as string)
    ) {
      report(index, 'value', 'the dimension has this value already')
    }
    if (!isFiniteJson(record.value_metadata)) report(index, 'value_metadata', 'not a JSON object of finite numbers')
  })
  return problems
}

/** The reference a record of the collection holds, and how to tell it exists. */
function referenceCheck(world: World, collection: RecordCollection) {
  switch (collection) {
    case 'personas':
    case 'policies': {
      const teams = new Set(world.teams.all().map((team) => team.id))
      return { field: 'team_id', kind: 'team', test: (id: string) => teams.has(id) }
    }
    case 'values':
      return { field: 'dimension_id', kind: 'dimension', test: (id: string) => world.dimensionById().has(id) }
    case 'rules':
      return { field: 'policy_id', kind: 'policy', test: (id: string) => world.policyById().has(id) }
    default:
      return undefined
  }
}

/** No NaN or infinity anywhere inside: FastAPI could not write it back. */
function isFiniteJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(isFiniteJson)
  if (typeof value === 'object' && value !== null) return Object.values(value).every(isFiniteJson)
  return true
}
