import { PyDict, PyFloat, type PyValue } from '../python/value.js'

/**
 * Python's `dict(value)`, which pydantic 1 tries on anything that is not a dict already (a model's input,
 * a `Dict[...]` field): a dict gives its items; a list gives them when every element is a pair (a 2-item
 * list, or a 2-character string) with a hashable key; `''` gives `{}`. Keys that Python holds equal
 * (`1`, `1.0`, `true`) are one key: the first one stays, the last value wins.
 * @returns the items in order, or `undefined` where `dict()` raises (`type_error.dict`).
 * @example pythonDictItems([['a', 1], 'bc']) // [['a', 1], ['b', 'c']]
 */
export function pythonDictItems(value: PyValue): Array<[PyValue, PyValue]> | undefined {
  if (value instanceof PyDict) return [...value]
  if (value === '') return []
  if (!Array.isArray(value)) return undefined
  const items = new Map<string, [PyValue, PyValue]>()
  for (const element of value) {
    const pair = typeof element === 'string' ? [...element] : element
    if (!Array.isArray(pair) || pair.length !== 2) return undefined
    const [key, item] = pair as [PyValue, PyValue]
    const identity = hashKey(key)
    if (identity === undefined) return undefined
    const known = items.get(identity)
    items.set(identity, [known ? known[0] : key, item])
  }
  return [...items.values()]
}

/** A key's identity under Python's `==` and `hash`; `undefined` for an unhashable one (list, dict). */
function hashKey(key: PyValue): string | undefined {
  if (typeof key === 'string') return `s${key}`
  if (key === null) return 'None'
  if (typeof key === 'boolean') return `n${key ? 1 : 0}`
  if (typeof key === 'number' || typeof key === 'bigint') return `n${key}`
  if (key instanceof PyFloat) return Number.isInteger(key.value) ? `n${BigInt(key.value)}` : `f${key.value}`
  return undefined
}
