import type { z } from 'zod'
import { API_ROUTES, type ApiRoute } from '../../model/api/routes.js'
import type { Profile } from '../../model/profile.js'
import { fieldInfo, fieldSchema, SchemaRegistry, typeSchema, type JsonSchema } from '../pydantic/json-schema.js'
import { pythonTitle } from '../pydantic/model-names.js'
import { componentSchemas } from './schema-key-order.js'
import {
  declaredErrorResponses,
  isBodyAllowed,
  JSON_MEDIA_TYPE,
  operationId,
  operationResponses,
  operationSummary,
  parameterFields,
} from './operation-parts.js'
import { buildV1Document } from './pydantic-v1.js'
import { encodePythonJson } from '../python/json-encode.js'

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

/**
 * Builds the document FastAPI would serve for the imagined app under `profile` (the bulk add's
 * status, the rules paging parameters, the bounds and declared errors are profile settings, so the
 * document follows them). With `pydantic: '1'` it is FastAPI 0.92's document (`pydantic-v1.ts`).
 * @example JSON.stringify(buildOpenApiDocument(DEFAULT_PROFILE)) // the bytes of GET /openapi.json
 */
export function buildOpenApiDocument(profile: Profile): object {
  if (profile.pydantic === '1') return buildV1Document(profile)
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

/**
 * The document as a client reads it: `JSON.parse` of the bytes. {@link buildOpenApiDocument} holds what the
 * bytes need (pydantic 1's `100.0` bounds as `PyFloat`s, a declared 5xx before the 422 in a `PyDict`); this
 * is plain JSON data, to compare with another server's parsed document.
 */
export const openApiDocumentJson = (profile: Profile): unknown =>
  JSON.parse(encodePythonJson(buildOpenApiDocument(profile)))

/** One operation, keys in `get_openapi_path`'s order; every route depends on `HTTPBearer`. */
function operationObject(route: ApiRoute, profile: Profile, registry: SchemaRegistry): JsonSchema {
  const operation: JsonSchema = {
    tags: [...route.tags],
    summary: operationSummary(route),
    operationId: operationId(route),
    security: [{ HTTPBearer: [] }],
  }
  const parameters = parameterFields(route, profile).map(({ name, location, field }) =>
    parameterObject(name, location, field, registry),
  )
  if (parameters.length > 0) operation['parameters'] = parameters
  const body = route.request.body?.(profile)
  if (body) operation['requestBody'] = requestBodyObject(body, registry)
  operation['responses'] = responsesObject(route, profile, registry, parameters.length > 0 || body !== undefined)
  return operation
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

/** The success response (status from the route, maybe from the profile), the declared errors, then the 422. */
function responsesObject(route: ApiRoute, profile: Profile, registry: SchemaRegistry, hasInput: boolean): object {
  const status = route.response.status(profile)
  const success: JsonSchema = { description: 'Successful Response' }
  if (isBodyAllowed(status)) success['content'] = { [JSON_MEDIA_TYPE]: { schema: responseSchema(route, registry) } }
  const validationError = () => ({
    description: 'Validation Error',
    content: { [JSON_MEDIA_TYPE]: { schema: registry.useValidationError() } },
  })
  return operationResponses(
    [String(status), success],
    declaredErrorResponses(route, profile),
    hasInput ? validationError : undefined,
  )
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
