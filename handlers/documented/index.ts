import type { Operation, ParsedRequest } from '../../core/operation.js'
import type { PreparedAnswer } from '../../core/overrides/answer.js'
import type { Route } from '../../fastapi/http/router.js'
import { httpError } from '../../fastapi/http/responses.js'
import type { DocumentOperation, ServedDocument } from '../../fastapi/served/document.js'
import { parseServedRequest, prepareValidators, type ServedRequest } from '../../fastapi/served/request.js'
import { recordProblems, servedAnswer } from '../../fastapi/served/response.js'
import type { DocumentedRecord } from '../../model/documented.js'
import type { Persona } from '../../model/schemas.js'
import type { World } from '../../model/world.js'
import { conventionsOf, type Collection, type Convention, type Envelope } from './conventions.js'
import { servedOverride } from './override.js'
import { generatedAnswer, idTaken, newRecord, recordsOf, touched } from './records.js'

/**
 * A route of a served document: the router's, named by the operation's `operationId` (what faults, recorded contracts
 * and the control API call it), or `METHOD path` where it has none or an operation named before took its id.
 */
export interface ServedRoute extends Route {
  readonly served: true
}

/** The operations a served document adds to the mock's own, as routes and the operation answering each. */
export interface ServedApi {
  /** The document as given, for the mock's own `/openapi.json` to describe the operations beside its own. */
  readonly document: Record<string, unknown>
  readonly routes: readonly ServedRoute[]
  readonly operations: Readonly<Record<string, Operation>>
  /** Prepares a control override's answer for each operation, by name (handlers/documented/override.ts). */
  readonly overrides: ReadonlyMap<string, (result: unknown) => PreparedAnswer>
}

/** The mock's collections a document may name: a GET by id reads the world the mock's own operations read. */
const MOCK_PERSONAS = '/v1/personas'

/**
 * Every operation of the document that the mock does not implement itself (`own`: same method and path),
 * answered by convention (handlers/documented/conventions.ts).
 */
export function servedApi(document: ServedDocument, own: readonly Route[]): ServedApi {
  const conventions = conventionsOf(document)
  const served = document.operations.filter(
    (operation) =>
      !own.some((route) => route.method === operation.method && route.path === operation.path) &&
      !writesMockPersonas(conventions.get(operation)!),
  )
  for (const operation of served) prepareValidators(document, operation)
  const taken = new Set(own.map((route) => route.name))
  const routes = served.map((operation) => ({
    name: servedName(operation, taken),
    method: operation.method,
    path: operation.path,
    served: true as const,
  }))
  const operations = Object.fromEntries(
    served.map((operation, index) => [
      routes[index]!.name,
      operationFor(document, operation, conventions.get(operation)!),
    ]),
  )
  const overrides = new Map(
    served.map((operation, index) => {
      const { name } = routes[index]!
      return [name, (result: unknown) => servedOverride(document, operation, name, result)] as const
    }),
  )
  return { document: document.raw, routes, operations, overrides }
}

/**
 * Whether an operation of the document writes the mock's own persona collection (any but the read by id). The mock
 * lists and reads its world's personas, so a create, change or delete kept apart from them would answer what no read
 * shows (a created persona 404 by id, a listed one 404 to its DELETE): such an operation is not served, and its
 * requests get Starlette's 405 for a method the path does not take. A real server's document has them, so they do
 * not stop the start.
 */
const writesMockPersonas = (convention: Convention): boolean =>
  'collection' in convention && convention.collection.key === MOCK_PERSONAS && convention.kind !== 'read'

/** An operation's name: its `operationId` unless an operation named before took it, else `METHOD path`. */
function servedName({ operationId, method, path }: DocumentOperation, taken: Set<string>): string {
  const name = operationId !== undefined && !taken.has(operationId) ? operationId : `${method} ${path}`
  taken.add(name)
  return name
}

type Context = Parameters<Operation>[0]

function operationFor(document: ServedDocument, operation: DocumentOperation, convention: Convention): Operation {
  return async (context) => {
    const parsed = await parseServedRequest(document, operation, context)
    const overridden = await context.intercept?.(parsed as ParsedRequest)
    if (overridden) return overridden
    const value = await answerValue(document, operation, convention, parsed, context)
    return servedAnswer(document, operation, value)
  }
}

async function answerValue(
  document: ServedDocument,
  operation: DocumentOperation,
  convention: Convention,
  parsed: ServedRequest,
  context: Context,
): Promise<unknown> {
  const { world, profile, now } = context
  if (convention.kind === 'generate') {
    const key = `${operation.method} ${operation.path} ${JSON.stringify(parsed.params)}`
    return generatedAnswer(document, operation.success.schema, { world, profile, key, echo: parsed.params })
  }
  const { collection } = convention
  if (collection.key === MOCK_PERSONAS && convention.kind === 'read')
    return personaById(world, parsed, collection) ?? notFound(operation)
  const records = recordsOf(world, document, collection, profile)
  switch (convention.kind) {
    case 'list':
      return listed(records, convention.envelope, parsed)
    case 'create': {
      const created = newRecord(document, collection, records, parsed.body, context)
      refuseTakenId(records, collection, created)
      const record = fitting(document, collection, created)
      world.setDocumented(collection.key, [...records, record])
      return record
    }
  }
  const id = parsed.params[collection.idParam ?? '']
  const at = records.findIndex((record) => String(record[collection.idField]) === String(id))
  if (at === -1) return notFound(operation)
  const stored = records[at]!
  const body = (parsed.body ?? {}) as Record<string, unknown>
  const write = (record: DocumentedRecord | undefined) => {
    if (record) refuseTakenId(records, collection, record, at)
    const next = [...records]
    if (record) next[at] = fitting(document, collection, record)
    else next.splice(at, 1)
    world.setDocumented(collection.key, next)
    return record ?? stored
  }
  switch (convention.kind) {
    case 'read':
      return stored
    case 'remove':
      return write(undefined)
    case 'update': {
      const sent = Object.fromEntries(Object.entries(body).filter(([name]) => parsed.sentKeys.has(name)))
      return write(touched(document, collection, { ...stored, ...sent }, { profile, now }))
    }
    case 'replace': {
      const replaced = { ...stored, ...body, [collection.idField]: stored[collection.idField] }
      return write(touched(document, collection, replaced, { profile, now }))
    }
  }
}

/**
 * The record, if it fits the record schema its answers are validated by. One that does not (a PATCH setting a
 * required field to null, which the update's own schema allows) is not kept: FastAPI's response validation would
 * answer 500 and never send it, so the mock answers 500 too (the error reported), and stores nothing a frontend
 * could then read from it.
 * @throws Error naming what does not fit
 */
function fitting(document: ServedDocument, collection: Collection, record: DocumentedRecord): DocumentedRecord {
  const problems = recordProblems(document, collection.schema, record)
  if (problems.length === 0) return record
  throw new Error(`a record of ${collection.key} that its response model refuses: ${problems.join('; ')}`)
}

/**
 * A write that would store an id another record holds is refused with 409 and stores nothing: no id may be there
 * twice (docs/openapi.md), or the item path could not tell them apart and the state export could not be loaded.
 * @throws Response 409 `{"detail": ...}`, as a FastAPI app raises `HTTPException(409)` for a duplicate
 */
function refuseTakenId(
  records: readonly DocumentedRecord[],
  collection: Collection,
  record: DocumentedRecord,
  except = -1,
): void {
  const id = record[collection.idField]
  if (idTaken(records, collection.idField, id, except))
    throw httpError(409, `${collection.idField} ${String(id)} already exists`)
}

/** A page of a collection, in the list's envelope: `limit`/`offset` or `page`/`size` as the list declares them. */
function listed(records: readonly DocumentedRecord[], envelope: Envelope, { query }: ServedRequest): unknown {
  const filtered = records.filter((record) =>
    Object.entries(query).every(
      ([name, value]) => PAGING.has(name) || value == null || !(name in record) || record[name] === value,
    ),
  )
  const size = numberOf(query.limit ?? query.size ?? query.page_size ?? query.per_page)
  const offset =
    numberOf(query.offset) ?? (numberOf(query.page) !== undefined && size ? (numberOf(query.page)! - 1) * size : 0)
  const page = filtered.slice(
    Math.max(0, offset ?? 0),
    size === undefined ? undefined : Math.max(0, offset ?? 0) + size,
  )
  if (envelope.kind === 'array') return page
  const echoed = Object.fromEntries(Object.entries(query).filter(([name]) => PAGING.has(name)))
  return { ...echoed, [envelope.items]: page, ...(envelope.total && { [envelope.total]: filtered.length }) }
}

const PAGING = new Set(['limit', 'offset', 'page', 'size', 'page_size', 'per_page'])

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined)

/** A persona of the token's team (any team's for a super admin), from the world the persona list reads. */
function personaById(world: World, { params, claims }: ServedRequest, collection: Collection): Persona | undefined {
  const id = params[collection.idParam ?? '']
  const teams = world.personasByTeam()
  const searched = !claims || claims.is_super_admin ? [...teams.values()] : [teams.get(claims.team_id ?? '')]
  for (const team of searched) {
    const found = team?.ordered.find((persona) => persona.id === id)
    if (found) return found
  }
  return undefined
}

/** FastAPI's `HTTPException(404)`: the detail the document's example gives, else Starlette's phrase. */
function notFound(operation: DocumentOperation): never {
  throw httpError(404, operation.notFoundDetail ?? 'Not Found')
}
