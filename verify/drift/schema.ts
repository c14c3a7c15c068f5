import type { OpenApiDocument } from './openapi-source.js'
import { MAX_DEPTH, normalise, typeName, type Node } from './normalise.js'

/**
 * Compares one schema of the mock's document with the server's, by the rule: a difference fails
 * only where a frontend built against the mock could break. On the request side that is a server
 * stricter than the mock (a tighter bound, a value or field it refuses); on the response side a
 * server that may send what the mock never does (null, another type). The other direction is
 * leniency, and the way pydantic 1 writes schemas (`X` for `Optional[X]`, `allOf: [$ref]`) dialect.
 */
export type Side = 'request' | 'response'
type Verdict = 'failure' | 'dialect' | 'lenient' | 'extra'
export interface SchemaFinding {
  verdict: Verdict
  message: string
  /** Dialect findings of one kind are reported together. */
  topic?: string
}

type Schema = Record<string, unknown>
export interface Documents {
  mock: OpenApiDocument
  server: OpenApiDocument
  /** `plain`: the server's document cannot say null at all (pydantic 1). */
  serverNullability: 'anyOf-null' | 'nullable' | 'plain'
}
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems']
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems']
/** Components whose vocabulary or required fields the description leaves open ("not shown"). */
const OPEN = [
  'Assignee',
  'ConsequenceAction',
  'Severity',
  'ConstraintLogic',
  'ConstraintOperator',
  'DemographicValueCreate',
]
const NULLABILITY_TOPIC = 'pydantic 1 writes Optional[X] as X: nullability not compared'

/** Every difference of two schemas, recursively (titles and descriptions are not compared). */
export function compareSchemas(
  out: SchemaFinding[],
  where: string,
  side: Side,
  docs: Documents,
  ours: Schema,
  theirs: Schema,
  depth = 0,
): void {
  const [a, b] = [normalise(docs.mock, ours), normalise(docs.server, theirs)]
  if (depth > MAX_DEPTH) return
  const [typeA, typeB] = [typeName(docs.mock, a.schema), typeName(docs.server, b.schema)]
  if (typeA !== typeB)
    return void out.push({ verdict: 'failure', message: `${where}: ${typeA} in the mock, ${typeB} on the server` })
  compareNullability(out, where, side, docs, a, b)
  compareBounds(out, where, side, a.schema, b.schema)
  compareEnums(out, where, side, a, b)
  compareProperties(out, where, side, docs, a, b, depth)
  const [itemsA, itemsB] = [a.schema['items'], b.schema['items']] as Array<Schema | undefined>
  if (itemsA && itemsB) compareSchemas(out, `${where}[]`, side, docs, itemsA, itemsB, depth + 1)
}

function compareNullability(out: SchemaFinding[], where: string, side: Side, docs: Documents, a: Node, b: Node): void {
  if (a.nullable === b.nullable) return
  if (docs.serverNullability === 'plain')
    return void out.push({ verdict: 'dialect', topic: NULLABILITY_TOPIC, message: where })
  const serverWider = b.nullable
  const breaks = side === 'response' ? serverWider : !serverWider
  const message = `${where}: ${serverWider ? 'nullable on the server only' : 'nullable in the mock only'}`
  if (breaks) out.push({ verdict: 'failure', message })
  else if (side === 'request') out.push({ verdict: 'lenient', message })
}

function compareBounds(out: SchemaFinding[], where: string, side: Side, a: Schema, b: Schema): void {
  for (const bound of [...LOWER, ...UPPER, 'format', 'default']) {
    const [ours, theirs] = [a[bound], b[bound]]
    if (JSON.stringify(ours) === JSON.stringify(theirs)) continue
    const message = `${where}: ${bound} ${JSON.stringify(ours)} in the mock, ${JSON.stringify(theirs)} on the server`
    if (side === 'response') out.push({ verdict: 'extra', message })
    else if (bound === 'default' || (bound === 'format' && theirs !== undefined))
      out.push({ verdict: 'failure', message })
    else out.push({ verdict: stricter(bound, ours, theirs) ? 'failure' : 'lenient', message })
  }
}

/** Whether the server's bound refuses a value the mock's takes. */
function stricter(bound: string, ours: unknown, theirs: unknown): boolean {
  if (typeof theirs !== 'number') return false
  if (typeof ours !== 'number') return true
  return LOWER.includes(bound) ? theirs > ours : theirs < ours
}

function compareEnums(out: SchemaFinding[], where: string, side: Side, a: Node, b: Node): void {
  const [ours, theirs] = [a.schema['enum'], b.schema['enum']] as Array<unknown[] | undefined>
  if (!ours || !theirs) return
  const open = OPEN.includes(a.ref ?? '')
  const missing = ours.filter((value) => !theirs.includes(value))
  const extra = theirs.filter((value) => !ours.includes(value))
  const verdict = (breaks: boolean): Verdict =>
    open ? 'extra' : breaks ? 'failure' : side === 'request' ? 'lenient' : 'extra'
  if (missing.length)
    out.push({
      verdict: verdict(side === 'request'),
      message: `${where}: the server does not declare ${JSON.stringify(missing)}`,
    })
  if (extra.length)
    out.push({
      verdict: verdict(side === 'response'),
      message: `${where}: the server also declares ${JSON.stringify(extra)}`,
    })
}

function compareProperties(
  out: SchemaFinding[],
  where: string,
  side: Side,
  docs: Documents,
  a: Node,
  b: Node,
  depth: number,
): void {
  const [ours, theirs] = [a.schema['properties'], b.schema['properties']] as Array<Record<string, Schema> | undefined>
  if (!ours || !theirs) return
  for (const [name, schema] of Object.entries(ours)) {
    const match = theirs[name]
    if (!match) out.push({ verdict: 'failure', message: `${where}.${name}: not in the server's document` })
    else compareSchemas(out, `${where}.${name}`, side, docs, schema, match, depth + 1)
  }
  for (const name of Object.keys(theirs).filter((key) => !ours[key])) {
    const fastApi = a.ref === 'ValidationError' && ['input', 'ctx'].includes(name)
    if (fastApi)
      out.push({
        verdict: 'dialect',
        topic: 'FastAPI ≥0.128.1 declares input and ctx in its 422 schema',
        message: `${where}.${name}`,
      })
    else out.push({ verdict: 'extra', message: `${where}.${name}: a field the mock does not know` })
  }
  if (side === 'request') compareRequired(out, where, a, b)
}

function compareRequired(out: SchemaFinding[], where: string, a: Node, b: Node): void {
  const ours = (a.schema['required'] ?? []) as string[]
  const theirs = (b.schema['required'] ?? []) as string[]
  for (const name of theirs.filter((field) => !ours.includes(field))) {
    const message = `${where}.${name}: required on the server, optional in the mock`
    out.push({ verdict: OPEN.includes(a.ref ?? '') ? 'extra' : 'failure', message })
  }
  for (const name of ours.filter((field) => !theirs.includes(field)))
    out.push({ verdict: 'lenient', message: `${where}.${name}: optional on the server` })
}
