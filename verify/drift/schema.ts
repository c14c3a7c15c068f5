import { compareBounds, compareEnums, compareNullability, OPEN, OPTIONAL_OPEN } from './constraints.js'
import { BEYOND, failure, LEFT_OPEN, LENIENT, NARROWER, note, TOPICS, warning } from './findings.js'
import type { Documents, SchemaFinding, Side } from './findings.js'
import { allows, MAX_DEPTH, normalise, typesOf, typeWords, type Node } from './normalise.js'

export type { Documents, SchemaFinding, Side } from './findings.js'

/**
 * Compares one schema of the mock's document with the server's, recursively, by what a difference
 * changes on the wire (findings.ts). Titles, descriptions, examples, `$ref` names and key order are
 * never compared; each generation's spelling is read through (normalise.ts).
 */

type Schema = Record<string, unknown>

export function compareSchemas(
  out: SchemaFinding[],
  where: string,
  side: Side,
  docs: Documents,
  ours: Schema,
  theirs: Schema,
  depth = 0,
  fieldOpen = false,
  guessed = false,
): void {
  if (depth > MAX_DEPTH) return
  const [a, b] = [normalise(docs.mock, ours), normalise(docs.server, theirs)]
  if (GUESSED.includes(a.ref ?? '') && !guessed) {
    const inner: SchemaFinding[] = []
    compareSchemas(inner, where, side, docs, ours, theirs, depth, fieldOpen, true)
    return void out.push(...inner.map(asGuess))
  }
  if (!sameTypes(out, where, side, docs, a, b)) return
  compareNullability(out, where, side, docs, a, b, fieldOpen)
  compareBounds(out, where, side, docs, a.schema, b.schema)
  compareEnums(out, where, side, a, b)
  compareProperties(out, where, side, docs, a, b, depth, guessed)
  const [itemsA, itemsB] = [a.schema['items'], b.schema['items']] as Array<Schema | undefined>
  if (itemsA && itemsB) compareSchemas(out, `${where}[]`, side, docs, itemsA, itemsB, depth + 1, false, guessed)
}

/**
 * Components whose whole shape is the mock's guess: "Fields of a constraint object: not shown". The server's own
 * constraint model breaks nothing the description promises: what would fail is a warning.
 */
const GUESSED = ['Constraint']

function asGuess(finding: SchemaFinding): SchemaFinding {
  if (finding.verdict !== 'failure') return finding
  return warning(
    `${LEFT_OPEN}: ${finding.message} (the fields of a constraint object are not shown: the mock's constraint is its own guess, and no profile setting changes it)`,
  )
}

/**
 * Whether both allow the same JSON types. Where they do not, a server that takes more in a request, or
 * sends less in an answer, keeps every client of the mock working; the other way fails.
 */
function sameTypes(out: SchemaFinding[], where: string, side: Side, docs: Documents, a: Node, b: Node): boolean {
  const [mine, server] = [typesOf(docs.mock, a.schema), typesOf(docs.server, b.schema)]
  if (allows(mine, server) && allows(server, mine)) return true
  const message = `${where}: ${typeWords(mine)} in the mock, ${typeWords(server)} on the server`
  if (side === 'response') out.push(allows(mine, server) ? note(`${NARROWER}: ${message}`) : failure(message))
  else out.push(allows(server, mine) ? note(`${LENIENT}: ${message}`) : failure(message))
  return false
}

/** A field of the mock's the server lacks fails (sent, it is dropped; received, it is missing). */
function compareProperties(
  out: SchemaFinding[],
  where: string,
  side: Side,
  docs: Documents,
  a: Node,
  b: Node,
  depth: number,
  guessed: boolean,
): void {
  const [ours, theirs] = [a.schema['properties'], b.schema['properties']] as Array<Record<string, Schema> | undefined>
  if (!ours || !theirs) return
  const open = freeForm(b.schema)
  for (const [name, schema] of Object.entries(ours)) {
    const match = theirs[name]
    const fieldOpen = OPTIONAL_OPEN.includes(a.ref ?? '')
    if (match) compareSchemas(out, `${where}.${name}`, side, docs, schema, match, depth + 1, fieldOpen, guessed)
    else if (open === true) out.push(note(`${where}.${name}`, TOPICS.freeForm))
    else if (open) compareSchemas(out, `${where}.${name}`, side, docs, schema, open, depth + 1, false, guessed)
    else out.push(failure(`${where}.${name}: not in the server's document`))
  }
  for (const name of Object.keys(theirs).filter((key) => !ours[key])) {
    const fastApi = a.ref === 'ValidationError' && ['input', 'ctx'].includes(name)
    if (fastApi) out.push(note(`${where}.${name}`, TOPICS.errorInput))
    else out.push(note(`${BEYOND}: ${where}.${name}: a field the mock does not know`))
  }
  if (side !== 'response') compareRequired(out, where, a, b)
}

/**
 * Whether an object of the server's takes fields it does not name: `true` for any field (`additionalProperties:
 * true` or `{}`, as pydantic 2 writes a model with `extra="allow"` and `Dict[str, Any]`), the schema of such a
 * field (`Dict[str, X]`), or undefined when it keeps only the fields it names (pydantic's default, which drops
 * the others). An object without `properties` (free-form) is not compared field by field at all.
 */
function freeForm(schema: Schema): true | Schema | undefined {
  const extra = schema['additionalProperties']
  if (extra === true) return true
  if (typeof extra === 'object' && extra !== null) return Object.keys(extra).length ? (extra as Schema) : true
  return undefined
}

/** A field the server requires and the mock does not refuses the mock's requests without it. */
function compareRequired(out: SchemaFinding[], where: string, a: Node, b: Node): void {
  const ours = (a.schema['required'] ?? []) as string[]
  const theirs = (b.schema['required'] ?? []) as string[]
  for (const name of theirs.filter((field) => !ours.includes(field))) {
    const message = `${where}.${name}: required on the server, optional in the mock`
    out.push(OPEN.includes(a.ref ?? '') ? note(`${LEFT_OPEN}: ${message}`) : failure(message))
  }
  for (const name of ours.filter((field) => !theirs.includes(field)))
    out.push(note(`${LENIENT}: ${where}.${name}: optional on the server`))
}
