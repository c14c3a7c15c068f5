import { compareSchemas, type Documents, type SchemaFinding, type Side } from './schema.js'
import { documentDialect } from '../profile/generation.js'
import type { OpenApiDocument } from './openapi-source.js'

/**
 * Compares the server's OpenAPI document with the mock's, operation by operation. A finding is a
 * failure only where a frontend built against the mock could break (see drift-schema.ts); what
 * the server declares beyond the mock, what it leaves more lenient and how its generation writes
 * schemas are reported, never failed.
 */
export type DriftKind = 'operations' | 'parameters' | 'request-body' | 'responses'

export interface DriftFinding extends SchemaFinding {
  kind: DriftKind
}

type Schema = Record<string, unknown>
type Operation = { parameters?: Schema[]; requestBody?: Schema; responses?: Record<string, Schema> }

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** Every difference between the two documents, for the operations of the mock. */
export function compareDocuments(server: OpenApiDocument, mock: OpenApiDocument): DriftFinding[] {
  const findings: DriftFinding[] = []
  const docs: Documents = { mock, server, serverNullability: documentDialect(server).nullability }
  for (const [path, item] of Object.entries(mock.paths ?? {})) {
    for (const method of METHODS.filter((name) => (item as Schema)[name])) {
      const where = `${method.toUpperCase()} ${path}`
      const theirs = (server.paths?.[path] as Schema | undefined)?.[method] as Operation | undefined
      const ours = (item as Schema)[method] as Operation
      if (!theirs)
        findings.push({ kind: 'operations', verdict: 'failure', message: `${where}: not in the server's document` })
      else compareOperation(findings, where, docs, ours, theirs)
    }
  }
  return findings
}

function compareOperation(
  findings: DriftFinding[],
  where: string,
  docs: Documents,
  ours: Operation,
  theirs: Operation,
): void {
  compareParameters(findings, where, docs, ours.parameters ?? [], theirs.parameters ?? [])
  const body = (operation: Operation) => jsonSchema(operation.requestBody)
  compareSchemaPair(findings, 'request-body', 'request', `${where} body`, docs, body(ours), body(theirs))
  compareResponses(findings, where, docs, ours.responses ?? {}, theirs.responses ?? {})
}

const jsonSchema = (holder: Schema | undefined) =>
  ((holder?.['content'] as Schema | undefined)?.['application/json'] as Schema | undefined)?.['schema'] as
    | Schema
    | undefined

function compareParameters(
  findings: DriftFinding[],
  where: string,
  docs: Documents,
  ours: Schema[],
  theirs: Schema[],
): void {
  const key = (parameter: Schema) => `${String(parameter['in'])} parameter ${String(parameter['name'])}`
  const theirsByKey = new Map(theirs.map((parameter) => [key(parameter), parameter]))
  const push = (verdict: DriftFinding['verdict'], message: string) =>
    findings.push({ kind: 'parameters', verdict, message })
  for (const parameter of ours) {
    const match = theirsByKey.get(key(parameter))
    const at = `${where}: ${key(parameter)}`
    if (!match) {
      push('failure', `${at}: not in the server's document`)
      continue
    }
    const [mine, server] = [Boolean(parameter['required']), Boolean(match['required'])]
    if (mine !== server)
      push(server ? 'failure' : 'lenient', `${at}: required ${mine} in the mock, ${server} on the server`)
    compareSchemaPair(
      findings,
      'parameters',
      'request',
      at,
      docs,
      parameter['schema'] as Schema,
      match['schema'] as Schema,
    )
  }
  const ourKeys = new Set(ours.map(key))
  for (const parameter of theirs.filter((item) => !ourKeys.has(key(item)))) {
    const required = parameter['required'] === true
    push(
      required ? 'failure' : 'extra',
      `${where}: the server also ${required ? 'requires' : 'takes'} the ${key(parameter)}, which the mock does not know`,
    )
  }
}

function compareResponses(
  findings: DriftFinding[],
  where: string,
  docs: Documents,
  ours: Record<string, Schema>,
  theirs: Record<string, Schema>,
): void {
  for (const [status, response] of Object.entries(ours)) {
    if (!theirs[status]) {
      const declared = Object.keys(theirs).join(', ') || 'none'
      findings.push({
        kind: 'responses',
        verdict: 'failure',
        message: `${where}: the mock answers ${status}, the server's document declares ${declared}`,
      })
      continue
    }
    compareSchemaPair(
      findings,
      'responses',
      'response',
      `${where} ${status}`,
      docs,
      jsonSchema(response),
      jsonSchema(theirs[status]),
    )
  }
  for (const status of Object.keys(theirs).filter((code) => !ours[code])) {
    findings.push({
      kind: 'responses',
      verdict: 'extra',
      message: `${where}: the server also declares a ${status} answer`,
    })
  }
}

function compareSchemaPair(
  findings: DriftFinding[],
  kind: DriftKind,
  side: Side,
  where: string,
  docs: Documents,
  ours: Schema | undefined,
  theirs: Schema | undefined,
): void {
  if (!ours && !theirs) return
  if (!ours || !theirs) {
    const message = `${where}: ${ours ? "no schema in the server's document" : 'the server declares a schema the mock has none for'}`
    findings.push({ kind, verdict: ours ? 'failure' : 'extra', message })
    return
  }
  const found: SchemaFinding[] = []
  compareSchemas(found, where, side, docs, ours, theirs)
  findings.push(...found.map((finding) => ({ ...finding, kind })))
}
