import type { OpenApiDocument } from './openapi-source.js'

/**
 * Compares the server's OpenAPI document with the mock's, operation by operation: what the mock
 * declares and the server does not (or declares otherwise) is a failure; what the server declares
 * beyond the mock (another parameter, another field, FastAPI's newer `input`/`ctx`) is a warning.
 */
export type DriftKind = 'operations' | 'parameters' | 'request-body' | 'responses'

/** One difference: failures break the contract the mock keeps; warnings are what the mock could learn. */
export interface DriftFinding {
  kind: DriftKind
  severity: 'failure' | 'warning'
  message: string
}

type Schema = Record<string, unknown>
type Operation = { parameters?: Schema[]; requestBody?: Schema; responses?: Record<string, Schema> }
type Side = { document: OpenApiDocument; schema: Schema }

const METHODS = ['get', 'post', 'put', 'patch', 'delete']
const BOUNDS = ['format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'default']
const MAX_DEPTH = 8

/** Every difference between the two documents, for the operations of the mock. */
export function compareDocuments(server: OpenApiDocument, mock: OpenApiDocument): DriftFinding[] {
  const findings: DriftFinding[] = []
  for (const [path, item] of Object.entries(mock.paths ?? {})) {
    for (const method of METHODS.filter((name) => (item as Schema)[name])) {
      const where = `${method.toUpperCase()} ${path}`
      const theirs = (server.paths?.[path] as Schema | undefined)?.[method] as Operation | undefined
      if (!theirs) findings.push({ kind: 'operations', severity: 'failure', message: `${where}: not in the server's document` })
      else compareOperation(findings, where, { mock, server }, (item as Schema)[method] as Operation, theirs)
    }
  }
  return findings
}

function compareOperation(findings: DriftFinding[], where: string, documents: { mock: OpenApiDocument; server: OpenApiDocument }, ours: Operation, theirs: Operation): void {
  compareParameters(findings, where, documents, ours.parameters ?? [], theirs.parameters ?? [])
  const body = (operation: Operation) => ((operation.requestBody?.['content'] as Schema | undefined)?.['application/json'] as Schema | undefined)?.['schema'] as Schema | undefined
  compareSchemaPair(findings, 'request-body', `${where} body`, documents, body(ours), body(theirs))
  compareResponses(findings, where, documents, ours.responses ?? {}, theirs.responses ?? {})
}

function compareParameters(findings: DriftFinding[], where: string, documents: { mock: OpenApiDocument; server: OpenApiDocument }, ours: Schema[], theirs: Schema[]): void {
  const key = (parameter: Schema) => `${String(parameter['in'])} parameter ${String(parameter['name'])}`
  const theirsByKey = new Map(theirs.map((parameter) => [key(parameter), parameter]))
  for (const parameter of ours) {
    const match = theirsByKey.get(key(parameter))
    const at = `${where}: ${key(parameter)}`
    if (!match) {
      findings.push({ kind: 'parameters', severity: 'failure', message: `${at}: not in the server's document` })
      continue
    }
    if (Boolean(parameter['required']) !== Boolean(match['required'])) findings.push({ kind: 'parameters', severity: 'failure', message: `${at}: required ${Boolean(parameter['required'])} in the mock, ${Boolean(match['required'])} on the server` })
    compareSchemaPair(findings, 'parameters', at, documents, parameter['schema'] as Schema, match['schema'] as Schema)
  }
  const ourKeys = new Set(ours.map(key))
  for (const parameter of theirs.filter((item) => !ourKeys.has(key(item)))) findings.push({ kind: 'parameters', severity: 'warning', message: `${where}: the server also takes the ${key(parameter)}, which the mock does not know` })
}

function compareResponses(findings: DriftFinding[], where: string, documents: { mock: OpenApiDocument; server: OpenApiDocument }, ours: Record<string, Schema>, theirs: Record<string, Schema>): void {
  for (const [status, response] of Object.entries(ours)) {
    if (!theirs[status]) {
      const declared = Object.keys(theirs).join(', ') || 'none'
      findings.push({ kind: 'responses', severity: 'failure', message: `${where}: the mock answers ${status}, the server's document declares ${declared}` })
      continue
    }
    const schema = (response: Schema | undefined) => ((response?.['content'] as Schema | undefined)?.['application/json'] as Schema | undefined)?.['schema'] as Schema | undefined
    compareSchemaPair(findings, 'responses', `${where} ${status}`, documents, schema(response), schema(theirs[status]))
  }
  for (const status of Object.keys(theirs).filter((code) => !ours[code])) findings.push({ kind: 'responses', severity: 'warning', message: `${where}: the server also declares a ${status} answer` })
}

function compareSchemaPair(findings: DriftFinding[], kind: DriftKind, where: string, documents: { mock: OpenApiDocument; server: OpenApiDocument }, ours: Schema | undefined, theirs: Schema | undefined): void {
  if (!ours && !theirs) return
  if (!ours || !theirs) {
    findings.push({ kind, severity: ours ? 'failure' : 'warning', message: `${where}: ${ours ? 'no schema in the server\'s document' : 'the server declares a schema the mock has none for'}` })
    return
  }
  compareSchemas(findings, kind, where, { document: documents.mock, schema: ours }, { document: documents.server, schema: theirs }, 0)
}

/** Types, bounds, enums and properties, recursively; titles and descriptions are not compared. */
function compareSchemas(findings: DriftFinding[], kind: DriftKind, where: string, ours: Side, theirs: Side, depth: number): void {
  const [a, b] = [resolve(ours), resolve(theirs)]
  if (depth > MAX_DEPTH) return
  const fail = (message: string) => findings.push({ kind, severity: 'failure', message: `${where}: ${message}` })
  const [typeA, typeB] = [typeName(a), typeName(b)]
  if (typeA !== typeB) return void fail(`${typeA} in the mock, ${typeB} on the server`)
  for (const bound of BOUNDS) {
    if (JSON.stringify(a.schema[bound]) !== JSON.stringify(b.schema[bound])) fail(`${bound} ${JSON.stringify(a.schema[bound])} in the mock, ${JSON.stringify(b.schema[bound])} on the server`)
  }
  compareEnums(findings, kind, where, a.schema, b.schema)
  compareProperties(findings, kind, where, a, b, depth)
  const [itemsA, itemsB] = [a.schema['items'], b.schema['items']] as Array<Schema | undefined>
  if (itemsA && itemsB) compareSchemas(findings, kind, `${where}[]`, { ...a, schema: itemsA }, { ...b, schema: itemsB }, depth + 1)
  const [innerA, innerB] = [nonNull(a.schema), nonNull(b.schema)]
  if (innerA && innerB) compareSchemas(findings, kind, where, { ...a, schema: innerA }, { ...b, schema: innerB }, depth + 1)
}

function compareEnums(findings: DriftFinding[], kind: DriftKind, where: string, a: Schema, b: Schema): void {
  const [ours, theirs] = [a['enum'], b['enum']] as Array<unknown[] | undefined>
  if (!ours || !theirs) return
  const missing = ours.filter((value) => !theirs.includes(value))
  const extra = theirs.filter((value) => !ours.includes(value))
  if (missing.length) findings.push({ kind, severity: 'failure', message: `${where}: the server does not declare ${JSON.stringify(missing)}` })
  if (extra.length) findings.push({ kind, severity: 'warning', message: `${where}: the server also declares ${JSON.stringify(extra)}` })
}

function compareProperties(findings: DriftFinding[], kind: DriftKind, where: string, a: Side, b: Side, depth: number): void {
  const [ours, theirs] = [a.schema['properties'], b.schema['properties']] as Array<Record<string, Schema> | undefined>
  if (!ours || !theirs) return
  for (const [name, schema] of Object.entries(ours)) {
    const match = theirs[name]
    if (!match) findings.push({ kind, severity: 'failure', message: `${where}.${name}: not in the server's document` })
    else compareSchemas(findings, kind, `${where}.${name}`, { ...a, schema }, { ...b, schema: match }, depth + 1)
  }
  for (const name of Object.keys(theirs).filter((key) => !ours[key])) findings.push({ kind, severity: 'warning', message: `${where}.${name}: a field the mock does not know` })
}

/** Follows `$ref`s to `#/components/schemas/...` in the schema's own document. */
function resolve(side: Side): Side {
  let schema = side.schema
  for (let hops = 0; typeof schema['$ref'] === 'string' && hops < MAX_DEPTH; hops += 1) {
    const name = (schema['$ref'] as string).replace('#/components/schemas/', '')
    schema = (side.document.components?.schemas?.[name] as Schema | undefined) ?? {}
  }
  return { document: side.document, schema }
}

/** `string(uuid)`, `integer`, `object`, `array`, `string|null`, ... (members of an anyOf sorted). */
function typeName({ document, schema }: Side): string {
  const anyOf = schema['anyOf'] as Schema[] | undefined
  if (anyOf) return anyOf.map((member) => typeName(resolve({ document, schema: member }))).sort().join('|')
  if (schema['properties']) return 'object'
  const type = schema['type']
  return typeof type === 'string' ? type : 'any'
}

/** The one non-null member of a nullable `anyOf`. */
function nonNull(schema: Schema): Schema | undefined {
  const members = (schema['anyOf'] as Schema[] | undefined)?.filter((member) => member['type'] !== 'null')
  return members?.length === 1 ? members[0] : undefined
}
