import { compareSchemas } from './schema.js'
import { BEYOND, DOCUMENT_ONLY, failure, LENIENT, note } from './findings.js'
import type { Documents, SchemaFinding, Side } from './findings.js'
import { documentDialect, documentGeneration } from '../profile/generation.js'
import type { OpenApiDocument } from './openapi-source.js'
import { bodyPlace, describedBounds, operationPlace, parameterPlace } from './described-bounds.js'

/**
 * Compares the server's OpenAPI document with the mock's, operation by operation, by what each
 * difference changes on the wire (findings.ts): only what could break a client built against the
 * mock fails; the rest is noted.
 */
export type DriftKind = 'operations' | 'parameters' | 'request-body' | 'responses'

export interface DriftFinding extends SchemaFinding {
  kind: DriftKind
}

type Schema = Record<string, unknown>
type Operation = { parameters?: Schema[]; requestBody?: Schema; responses?: Record<string, Schema> }
type Found = (kind: DriftKind, finding: SchemaFinding) => void

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** A path as a client sends it: the names of its path parameters are not on the wire. */
const pathShape = (path: string) => path.replace(/\{[^}]*\}/g, '{}')
const pathNames = (path: string) => [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!)

/** Every difference between the two documents, for the operations of the mock. */
export function compareDocuments(server: OpenApiDocument, mock: OpenApiDocument): DriftFinding[] {
  const findings: DriftFinding[] = []
  const found: Found = (kind, finding) => findings.push({ ...finding, kind })
  const docs: Documents = {
    mock,
    server,
    serverMarksEveryNull: documentGeneration(documentDialect(server)) !== '1',
    described: describedBounds(mock),
  }
  const serverPaths = new Map(Object.keys(server.paths ?? {}).map((path) => [pathShape(path), path]))
  for (const [path, item] of Object.entries(mock.paths ?? {})) {
    const serverPath = serverPaths.get(pathShape(path))
    const serverItem = serverPath === undefined ? undefined : (server.paths?.[serverPath] as Schema)
    for (const method of METHODS.filter((name) => (item as Schema)[name])) {
      const where = operationPlace(method, path)
      const theirs = serverItem?.[method] as Operation | undefined
      const ours = (item as Schema)[method] as Operation
      if (!theirs) found('operations', failure(`${where}: not in the server's document`))
      else compareOperation(found, { where, docs, names: [pathNames(path), pathNames(serverPath!)] }, ours, theirs)
    }
  }
  return findings
}

interface Place {
  where: string
  docs: Documents
  /** The path parameters' names in the mock's path and in the server's, which match by position. */
  names: [string[], string[]]
}

function compareOperation(found: Found, place: Place, ours: Operation, theirs: Operation): void {
  compareParameters(found, place, ours.parameters ?? [], theirs.parameters ?? [])
  const body = (operation: Operation) => jsonSchema(operation.requestBody)
  compareSchemaPair(found, 'request-body', 'body', bodyPlace(place.where), place.docs, body(ours), body(theirs))
  compareResponses(found, place, ours.responses ?? {}, theirs.responses ?? {})
}

const jsonSchema = (holder: Schema | undefined) =>
  ((holder?.['content'] as Schema | undefined)?.['application/json'] as Schema | undefined)?.['schema'] as
    | Schema
    | undefined

/** A parameter as the wire knows it: where it goes, and its name (for a path parameter, its position). */
function parameterKey(parameter: Schema, names: string[]): string {
  const name = String(parameter['name'])
  return parameter['in'] === 'path'
    ? `path parameter #${names.indexOf(name)}`
    : `${String(parameter['in'])} parameter ${name}`
}

function compareParameters(found: Found, place: Place, ours: Schema[], theirs: Schema[]): void {
  const label = (parameter: Schema) => `${String(parameter['in'])} parameter ${String(parameter['name'])}`
  const theirsByKey = new Map(theirs.map((parameter) => [parameterKey(parameter, place.names[1]), parameter]))
  for (const parameter of ours) {
    const match = theirsByKey.get(parameterKey(parameter, place.names[0]))
    const at = parameterPlace(place.where, String(parameter['in']), String(parameter['name']))
    if (!match) {
      // The server ignores it: a filter or a page the mock honours does nothing there.
      found('parameters', failure(`${at}: not in the server's document`))
      continue
    }
    const [mine, server] = [Boolean(parameter['required']), Boolean(match['required'])]
    const message = `${at}: required ${mine} in the mock, ${server} on the server`
    if (mine !== server) found('parameters', server ? failure(message) : note(`${LENIENT}: ${message}`))
    const [mySchema, serverSchema] = [parameter['schema'], match['schema']] as Array<Schema | undefined>
    compareSchemaPair(found, 'parameters', 'parameter', at, place.docs, mySchema, serverSchema)
  }
  const ourKeys = new Set(ours.map((parameter) => parameterKey(parameter, place.names[0])))
  for (const parameter of theirs.filter((item) => !ourKeys.has(parameterKey(item, place.names[1])))) {
    const required = parameter['required'] === true
    const message = `${place.where}: the server also ${required ? 'requires' : 'takes'} the ${label(parameter)}, which the mock does not know`
    found('parameters', required ? failure(message) : note(`${BEYOND}: ${message}`))
  }
}

function compareResponses(
  found: Found,
  place: Place,
  ours: Record<string, Schema>,
  theirs: Record<string, Schema>,
): void {
  for (const [status, response] of Object.entries(ours)) {
    if (!theirs[status]) {
      const declared = Object.keys(theirs).join(', ') || 'none'
      found(
        'responses',
        failure(`${place.where}: the mock answers ${status}, the server's document declares ${declared}`),
      )
      continue
    }
    const [mine, server] = [jsonSchema(response), jsonSchema(theirs[status])]
    compareSchemaPair(found, 'responses', 'response', `${place.where} ${status}`, place.docs, mine, server)
  }
  for (const status of Object.keys(theirs).filter((code) => !ours[code]))
    found('responses', note(`${BEYOND}: ${place.where}: the server also declares a ${status} answer`))
}

/**
 * A schema the server's document does not give (FastAPI writes `{}` for a route without a model) says
 * nothing about the wire: the answers themselves are the schema checks' business.
 */
function compareSchemaPair(
  found: Found,
  kind: DriftKind,
  side: Side,
  where: string,
  docs: Documents,
  ours: Schema | undefined,
  theirs: Schema | undefined,
): void {
  if (!ours) {
    if (theirs && Object.keys(theirs).length) found(kind, note(`${BEYOND}: ${where}: a schema the mock has none for`))
    return
  }
  if (!theirs || Object.keys(theirs).length === 0)
    return void found(kind, note(`${DOCUMENT_ONLY}: ${where}: the server's document does not describe it`))
  const out: SchemaFinding[] = []
  compareSchemas(out, where, side, docs, ours, theirs)
  for (const finding of out) found(kind, finding)
}
