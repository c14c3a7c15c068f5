import { normalise } from './normalise.js'
import type { OpenApiDocument } from './openapi-source.js'
import type { Bounds, ProfileFile } from '../profile/settings.js'
import { API_ROUTES, OPERATION_NAMES, type OperationName } from '../../model/api/routes.js'

/** What the server's /openapi.json declares about the settings verify learns (read in either pydantic dialect). */

type Schema = Record<string, unknown>
type Operation = { parameters?: Schema[]; requestBody?: Schema; responses?: Record<string, unknown> }

/** The operation the document declares for the route of `name` (the profile names operations by endpoint). */
function operation(document: OpenApiDocument, name: OperationName): Operation | undefined {
  const { path, method } = API_ROUTES.find((route) => route.name === name)!
  return (document.paths?.[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()]
}

function parameterSchema(document: OpenApiDocument, name: OperationName, parameter: string): Schema | undefined {
  const found = operation(document, name)?.parameters?.find(
    (item) => item['name'] === parameter && item['in'] === 'query',
  )
  return found ? normalise(document, (found['schema'] as Schema | undefined) ?? {}).schema : undefined
}

/** A declared bound: its number, `null` when the schema is there without one, undefined when the schema is not. */
function boundOf(schema: Schema | undefined, key: string): number | null | undefined {
  if (!schema) return undefined
  return typeof schema[key] === 'number' ? (schema[key] as number) : null
}

/** The bulk add body's `values` list and its item's `value`, as declared. */
function bulkSchemas(document: OpenApiDocument): { values?: Schema; value?: Schema } {
  const body = operation(document, 'bulk_add_values')?.requestBody as
    | { content?: Record<string, { schema?: Schema }> }
    | undefined
  const root = body?.content?.['application/json']?.schema
  if (!root) return {}
  const values = (normalise(document, root).schema['properties'] as Record<string, Schema> | undefined)?.['values']
  const list = values ? normalise(document, values).schema : undefined
  const item = list?.['items'] ? normalise(document, list['items'] as Schema).schema : undefined
  const value = (item?.['properties'] as Record<string, Schema> | undefined)?.['value']
  return { values: list, value: value ? normalise(document, value).schema : undefined }
}

export function declaredBounds(
  document: OpenApiDocument,
  rulesLimitName: string,
): Partial<Record<keyof Bounds, number | null | undefined>> {
  const bulk = bulkSchemas(document)
  return {
    personasLimitMax: boundOf(parameterSchema(document, 'list_personas', 'limit'), 'maximum'),
    rulesLimitMax: boundOf(parameterSchema(document, 'list_policy_rules', rulesLimitName), 'maximum'),
    bulkMaxItems: boundOf(bulk.values, 'maxItems'),
    valueMaxLength: boundOf(bulk.value, 'maxLength'),
  }
}

/** The error answers each operation declares beyond the 422 (FastAPI declares only those a route names in `responses=`). */
export function declaredErrors(document: OpenApiDocument): NonNullable<ProfileFile['declaredErrors']> {
  const declared: Partial<Record<OperationName, number[]>> = {}
  for (const name of OPERATION_NAMES) {
    const statuses = Object.keys(operation(document, name)?.responses ?? {})
      .map(Number)
      .filter((status) => status >= 400 && status !== 422)
    if (statuses.length) declared[name] = statuses.sort((a, b) => a - b)
  }
  return declared
}

/** `enum` when the `intents` items are an enumeration, `string` when plain strings. */
export function declaredIntents(document: OpenApiDocument): 'enum' | 'string' | undefined {
  const schema = parameterSchema(document, 'list_personas', 'intents')
  const items = schema?.['items'] ? normalise(document, schema['items'] as Schema).schema : undefined
  if (!items) return undefined
  return Array.isArray(items['enum']) ? 'enum' : items['type'] === 'string' ? 'string' : undefined
}
