import type { z } from 'zod'
import { API_ROUTES, type ApiRoute } from '../api/routes.js'
import type { Profile } from '../model/profile.js'
import { fieldInfo, fieldSchema, pythonTitle, SchemaRegistry, titleShouldBeSet, typeSchema, type JsonSchema } from '../pydantic/json-schema.js'
import { componentSchemas } from './schema-key-order.js'

/**
 * The OpenAPI document of the imagined FastAPI application (`decisions.md`), as FastAPI 0.128.0 with
 * pydantic 2.12/2.13 serves it at `/openapi.json`. It is derived from the route table and the zod
 * schemas the mock validates with, so that the document cannot drift from what the mock accepts.
 *
 * Two key orders meet in FastAPI's output, and this module reproduces both:
 * - `paths` is a `PathItem | Any` union in FastAPI's `OpenAPI` model; a plain dict is taken as `Any`,
 *   so every object under `paths` keeps the insertion order FastAPI and pydantic built it in.
 * - `components.schemas` is validated into FastAPI's `Schema` model, whose `model_dump` writes keys in
 *   the model's field order: `SCHEMA_KEY_ORDER` in schema-key-order.ts (that is why a model reads `properties`, `type`,
 *   `required`, `title`, and an enum `type`, `enum`, `title`).
 * `None` values are dropped everywhere (`jsonable_encoder(..., exclude_none=True)`), so a `None`
 * default never shows up as `"default": null`.
 */

const JSON_MEDIA_TYPE = 'application/json'

/**
 * Builds the document FastAPI would serve for the imagined app under `profile` (the bulk add's
 * status and the rules paging parameters are profile settings, so the document follows them).
 * @example JSON.stringify(buildOpenApiDocument(DEFAULT_PROFILE)) // the bytes of GET /openapi.json
 */
export function buildOpenApiDocument(profile: Profile): object {
  const registry = new SchemaRegistry()
  const paths: JsonSchema = {}
  for (const route of API_ROUTES) {
    const item = (paths[route.path] ??= {}) as JsonSchema
    item[route.method.toLowerCase()] = operationObject(route, profile, registry)
  }
  const components = {
    schemas: componentSchemas(registry.definitions()),
    securitySchemes: { HTTPBearer: { type: 'http', scheme: 'bearer' } },
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Agent Management Console API', version: '0.1.0' },
    paths,
    components,
  }
}

/** One operation, keys in `get_openapi_path`'s order; every route depends on `HTTPBearer`. */
function operationObject(route: ApiRoute, profile: Profile, registry: SchemaRegistry): JsonSchema {
  const operation: JsonSchema = {
    tags: [...route.tags],
    summary: pythonTitle(route.name.replaceAll('_', ' ')),
    operationId: operationId(route),
    security: [{ HTTPBearer: [] }],
  }
  const parameters = operationParameters(route, profile, registry)
  if (parameters.length > 0) operation['parameters'] = parameters
  const body = route.request.body
  if (body) operation['requestBody'] = requestBodyObject(body, registry)
  operation['responses'] = responsesObject(route, profile, registry, parameters.length > 0 || body !== undefined)
  return operation
}

/** `fastapi.utils.generate_unique_id`: the endpoint name and path, every non-word character an underscore. */
function operationId(route: ApiRoute): string {
  return `${route.name}${route.path}`.replace(/[^\p{L}\p{N}_]/gu, '_') + `_${route.method.toLowerCase()}`
}

/** Path parameters first, then query parameters, each group in signature (shape) order. */
function operationParameters(route: ApiRoute, profile: Profile, registry: SchemaRegistry): JsonSchema[] {
  const groups: Array<[string, z.ZodObject<z.ZodRawShape> | undefined]> = [
    ['path', route.request.path],
    ['query', route.request.query?.(profile)],
  ]
  return groups.flatMap(([location, object]) =>
    Object.entries(object?.shape ?? {}).map(([name, field]) =>
      parameterObject(name, location, field as z.ZodType, registry),
    ),
  )
}

/** `_get_openapi_operation_parameters`: name, in, required, schema, then the description if any. */
function parameterObject(name: string, location: string, field: z.ZodType, registry: SchemaRegistry): JsonSchema {
  const info = fieldInfo(field)
  const schema = fieldSchema(info, registry, 'validation')
  if (!('$ref' in schema)) schema['title'] = pythonTitle(name).replaceAll('_', ' ')
  const parameter: JsonSchema = { name, in: location, required: location === 'path' || info.required, schema }
  if (info.description) parameter['description'] = info.description
  return parameter
}

/** A single non-embedded body model: FastAPI refers to the model's component. */
function requestBodyObject(body: z.ZodType, registry: SchemaRegistry): JsonSchema {
  const schema = typeSchema(body, registry, 'validation')
  return { required: true, content: { [JSON_MEDIA_TYPE]: { schema } } }
}

/** The success response (status from the route, maybe from the profile), then the 422 when there is input. */
function responsesObject(route: ApiRoute, profile: Profile, registry: SchemaRegistry, hasInput: boolean): JsonSchema {
  const status = route.response.status(profile)
  const success: JsonSchema = { description: 'Successful Response' }
  if (isBodyAllowed(status)) success['content'] = { [JSON_MEDIA_TYPE]: { schema: responseSchema(route, registry) } }
  const responses: JsonSchema = { [String(status)]: success }
  if (hasInput) {
    responses['422'] = { description: 'Validation Error', content: { [JSON_MEDIA_TYPE]: { schema: registry.useValidationError() } } }
  }
  return responses
}

/** `fastapi.utils.is_body_allowed_for_status_code`. */
function isBodyAllowed(status: number): boolean {
  return !(status < 200 || status === 204 || status === 205 || status === 304)
}

/**
 * The response field is named `Response_<operationId>`; a schema that is not a bare `$ref` (here the
 * bulk add's `List[DemographicValue]`) gets that name as its title.
 */
function responseSchema(route: ApiRoute, registry: SchemaRegistry): JsonSchema {
  const schema = typeSchema(route.response.schema, registry, 'serialization')
  if (!('$ref' in schema)) schema['title'] = pythonTitle(`Response_${operationId(route)}`).replaceAll('_', ' ')
  return schema
}
