/**
 * What makes an object an @msw/data record: two non-enumerable symbol properties that
 * `create` defines, a primary key (a string) and a relation map (a `Map`). @msw/data does
 * not export the symbols, so they are read off a record `create` made.
 */
export interface RecordIdentity {
  /** Makes `value` a record with the primary key `key` and no relations. */
  give<T extends object>(value: T, key: string): T
}

/**
 * The relation map of records stored in bulk: one shared, empty, unchangeable map (a
 * `Map` per record would cost 190 bytes each). @msw/data only reads a record's map, except
 * when relations are defined, which would write every record's map: this one then throws
 * rather than share a relation between records. The mock defines no relations.
 */
class NoRelations extends Map<string, unknown> {
  override set(): this {
    throw new Error('Records stored by createAll have no relations: define relations before storing records.')
  }
}
const NO_RELATIONS = new NoRelations()

/** The identity `record` carries, or undefined when it is not the one described above. */
export function recordIdentity(record: object): RecordIdentity | undefined {
  const symbols = Object.getOwnPropertySymbols(record)
  const primaryKey = symbols.find((symbol) => symbol.description === 'kPrimaryKey')
  const relationMap = symbols.find((symbol) => symbol.description === 'kRelationMap')
  if (symbols.length !== 2 || !primaryKey || !relationMap) return undefined
  const values = record as Record<symbol, unknown>
  if (typeof values[primaryKey] !== 'string' || !(values[relationMap] instanceof Map)) return undefined
  return {
    give(value, key) {
      return Object.defineProperties(value, {
        [primaryKey]: { value: key, enumerable: false, configurable: false },
        [relationMap]: { value: NO_RELATIONS, enumerable: false, configurable: false },
      })
    },
  }
}
