import {
  isObject,
  type DocumentOperation,
  type JsonSchema,
  type ServedDocument,
} from '../../fastapi/served/document.js'

/**
 * What the mock makes of a document's operation, by REST convention (docs/openapi.md):
 * - `create`: POST to a collection path (`/v1/agents/`), which stores a record;
 * - `list`: GET of a collection path, in the declared envelope (`results`/`total`, `items`/`count`, or an array);
 * - `read`, `update` (PATCH), `replace` (PUT), `remove` (DELETE): the item path (`/v1/agents/{agent_id}`);
 * - `generate`: anything else, answered with a value generated from its response schema.
 */
export type Convention =
  | { kind: 'create' | 'read' | 'update' | 'replace' | 'remove'; collection: Collection }
  | { kind: 'list'; collection: Collection; envelope: Envelope }
  | { kind: 'generate' }

/** A collection of records: where they are kept, what one looks like, and which of its fields is the id. */
export interface Collection {
  /** The collection path without its trailing slash: the key its records are kept under. */
  readonly key: string
  /** The record's schema: the item GET's answer, else the list's element, else the create's answer. */
  readonly schema: JsonSchema | undefined
  /** The field holding the id: the one named like the item path's parameter, else `id`. */
  readonly idField: string
  /** The item path's parameter (`agent_id`). */
  readonly idParam: string | undefined
}

/** A list's answer: the records as they are (`array`), or in an object under `items`, with the count in `total`. */
export type Envelope = { kind: 'array' } | { kind: 'object'; items: string; total: string | undefined }

const ITEM_PATH = /^(.*?)\/?\{([A-Za-z_][A-Za-z0-9_]*)\}$/

export function conventionsOf(document: ServedDocument): Map<DocumentOperation, Convention> {
  const collections = new Map<string, DocumentOperation[]>()
  for (const operation of document.operations) {
    const key = collectionKeyOf(document, operation)
    if (key !== undefined) collections.set(key, [...(collections.get(key) ?? []), operation])
  }
  const conventions = new Map<DocumentOperation, Convention>()
  for (const [key, operations] of collections) {
    const collection = describeCollection(document, key, operations)
    for (const operation of operations) conventions.set(operation, conventionOf(document, operation, collection))
  }
  for (const operation of document.operations)
    if (!conventions.has(operation)) conventions.set(operation, { kind: 'generate' })
  return conventions
}

/** The collection an operation works on: its path's, where the path is a collection's or an item's. */
function collectionKeyOf(document: ServedDocument, operation: DocumentOperation): string | undefined {
  const item = ITEM_PATH.exec(operation.path)
  if (item && ['GET', 'PATCH', 'PUT', 'DELETE'].includes(operation.method)) return item[1]
  if (!operation.path.endsWith('}') && ['GET', 'POST'].includes(operation.method)) {
    const key = operation.path.replace(/\/+$/, '')
    const hasItems = document.operations.some((other) => ITEM_PATH.exec(other.path)?.[1] === key)
    return hasItems || operation.path.endsWith('/') ? key : undefined
  }
  return undefined
}

function describeCollection(document: ServedDocument, key: string, operations: DocumentOperation[]): Collection {
  const itemOperation = operations.find((operation) => ITEM_PATH.test(operation.path))
  const idParam = itemOperation ? ITEM_PATH.exec(itemOperation.path)?.[2] : undefined
  const itemGet = operations.find((operation) => operation.method === 'GET' && ITEM_PATH.test(operation.path))
  const list = operations.find((operation) => operation.method === 'GET' && !ITEM_PATH.test(operation.path))
  const create = operations.find((operation) => operation.method === 'POST')
  const listed = list?.success.schema && elementOf(document, list.success.schema)
  const schema = itemGet?.success.schema ?? listed ?? create?.success.schema
  const properties = schema ? document.deref(schema).properties : undefined
  const idField = idParam && isObject(properties) && idParam in properties ? idParam : 'id'
  return { key, schema, idField, idParam }
}

function conventionOf(document: ServedDocument, operation: DocumentOperation, collection: Collection): Convention {
  if (ITEM_PATH.test(operation.path)) {
    const kind = ({ GET: 'read', PATCH: 'update', PUT: 'replace', DELETE: 'remove' } as const)[
      operation.method as 'GET'
    ]
    return { kind, collection }
  }
  if (operation.method === 'POST') return { kind: 'create', collection }
  const schema = operation.success.schema ? document.deref(operation.success.schema) : {}
  return { kind: 'list', collection, envelope: envelopeOf(document, schema) }
}

function envelopeOf(document: ServedDocument, schema: JsonSchema): Envelope {
  if (schema.type === 'array' || !isObject(schema.properties)) return { kind: 'array' }
  const properties = Object.entries(schema.properties)
  const items = properties.find(([, property]) => document.deref(property).type === 'array')?.[0] ?? 'results'
  const total = properties.find(([name, property]) => name !== items && document.deref(property).type === 'integer')
  return { kind: 'object', items, total: total?.[0] }
}

/** The schema of a list's element: an array's items, or those of the envelope's array. */
function elementOf(document: ServedDocument, schema: JsonSchema): JsonSchema | undefined {
  const resolved = document.deref(schema)
  if (resolved.type === 'array') return isObject(resolved.items) ? resolved.items : undefined
  if (!isObject(resolved.properties)) return undefined
  const array = Object.values(resolved.properties)
    .map((property) => document.deref(property))
    .find((property) => property.type === 'array')
  return array && isObject(array.items) ? array.items : undefined
}
