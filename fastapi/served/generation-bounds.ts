// Imports nothing of document.ts, which calls it: no import cycle.
type JsonSchema = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * How large a value the mock generates from a document's answer schemas (factories/from-schema.ts): the seeded
 * records and generated answers are built in memory on first use, so a `minItems: 100000000` would take the whole
 * process down. A document asking for more is refused at start (docs/openapi.md#limits): generating less would
 * give records below the document's own bounds, which its response model refuses (500 on every read).
 */
export const GENERATION_LIMITS = {
  /** Items of one array (`minItems`). */
  items: 1000,
  /** Characters of one string (`minLength`): 64 KiB. */
  characters: 65_536,
  /** Items and characters of one value in all, nested arrays multiplied (`minItems` 1000 of `minLength` 1000). */
  total: 1_000_000,
  /** Levels of nesting: deeper, a value is generated empty (`[]` or `null`), so no bound below counts. */
  depth: 8,
} as const

/** The schema a `$ref` names, and the JSON pointer it is at. */
type Resolve = (schema: unknown, at: string) => { schema: JsonSchema; at: string }

/**
 * The first place in an answer schema whose smallest value is more than the mock generates, as one sentence, or
 * undefined. Walks what generation walks (properties, items, unions, dicts), each reference once per branch, so a
 * recursive model ends.
 * @example generationBoundProblem(schema, '#/paths/~1v1~1i~1/get', resolve)
 * // 'the schema at #/components/schemas/I/properties/arr asks minItems 100000000, more than the mock generates (...)'
 */
export function generationBoundProblem(
  schema: unknown,
  at: string,
  resolve: Resolve,
  checked: Checked = new Map(),
): string | undefined {
  return walk(schema, at, { copies: 1, depth: 0 }, { open: new Set(), checked, resolve })
}

/**
 * Schemas found within bounds, with the most copies they were checked under at each depth: a model referenced from
 * many places is walked again only under more copies or from less deep, so shared models are checked a few times.
 */
export type Checked = Map<unknown, Map<number, number>>

/** Where a schema is met: how many times its value is repeated (the enclosing arrays' items), how deep. */
interface Place {
  readonly copies: number
  readonly depth: number
}

interface Walk {
  /** The schemas being walked, outer first: a model that contains itself ends the walk there. */
  readonly open: Set<unknown>
  readonly checked: Checked
  readonly resolve: Resolve
}

function walk(raw: unknown, rawAt: string, place: Place, state: Walk): string | undefined {
  if (place.depth > GENERATION_LIMITS.depth) return undefined
  const { schema, at } = state.resolve(raw, rawAt)
  const checked = state.checked.get(schema) ?? new Map<number, number>()
  if (state.open.has(schema) || (checked.get(place.depth) ?? 0) >= place.copies) return undefined
  const problem = walkInside(schema, at, place, state)
  if (!problem) state.checked.set(schema, checked.set(place.depth, place.copies))
  return problem
}

function walkInside(schema: JsonSchema, at: string, place: Place, state: Walk): string | undefined {
  const { open } = state
  open.add(schema)
  try {
    return ownProblem(schema, at, place.copies) ?? childProblem(schema, at, place, state)
  } finally {
    open.delete(schema)
  }
}

function ownProblem(schema: JsonSchema, at: string, copies: number): string | undefined {
  const { items, characters, total } = GENERATION_LIMITS
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0
  if (minItems > items) return tooLarge(at, `minItems ${minItems}`, `${items} items of an array`)
  if (minLength > characters) return tooLarge(at, `minLength ${minLength}`, `${characters} characters of a string`)
  if (copies * Math.max(minItems, minLength) > total)
    return tooLarge(
      at,
      `${minItems ? `minItems ${minItems}` : `minLength ${minLength}`} inside arrays that repeat it ${copies} times`,
      `${total} items and characters in one value`,
    )
  return undefined
}

/** The first problem below a schema: where generation goes next, one level deeper. */
function childProblem(schema: JsonSchema, at: string, { copies, depth }: Place, state: Walk): string | undefined {
  const repeated = copies * Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1)
  const children: Array<[unknown, string, number]> = []
  if (isObject(schema.items)) children.push([schema.items, `${at}/items`, repeated])
  if (isObject(schema.additionalProperties))
    children.push([schema.additionalProperties, `${at}/additionalProperties`, copies])
  if (isObject(schema.properties))
    for (const [name, property] of Object.entries(schema.properties))
      children.push([property, `${at}/properties/${pointerPart(name)}`, copies])
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(schema[key]))
      for (const [index, branch] of (schema[key] as unknown[]).entries())
        children.push([branch, `${at}/${key}/${index}`, copies])
  for (const [child, childAt, childCopies] of children) {
    const problem = walk(child, childAt, { copies: childCopies, depth: depth + 1 }, state)
    if (problem) return problem
  }
  return undefined
}

const tooLarge = (at: string, asked: string, limit: string) =>
  `the schema at ${at} asks ${asked}, more than the mock generates (at most ${limit})`

/** A name as one part of a JSON pointer (RFC 6901). */
export const pointerPart = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1')
