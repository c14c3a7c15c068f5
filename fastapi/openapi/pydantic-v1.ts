import type { z } from 'zod'
import { API_ROUTES, type ApiRoute } from '../../model/api/routes.js'
import type { Profile } from '../../model/profile.js'
import { fieldInfo, type JsonSchema } from '../pydantic/json-schema.js'
import { fieldSchemaV1, SchemaRegistryV1 } from '../pydantic/json-schema-v1.js'
import {
  declaredErrorResponses,
  isBodyAllowed,
  JSON_MEDIA_TYPE,
  operationId,
  operationResponses,
  operationSummary,
  parameterFields,
} from './operation-parts.js'
import { componentSchemas, schemaKeyOrder, type SchemaModel } from './schema-key-order.js'

/**
 * The OpenAPI document FastAPI 0.92 with pydantic 1.10 serves (profile `pydantic: '1'`). FastAPI validates
 * the whole document into its `OpenAPI` model and writes it with `jsonable_encoder(by_alias=True,
 * exclude_none=True)`, so unlike later versions every object is in its model's field order: an operation
 * ends with `security`, a parameter reads `description, required, schema, name, in`, a request body
 * `content, required`, and every schema follows {@link SCHEMA_MODEL_V1} (whose bounds are floats: `100.0`).
 */

/** The field order of FastAPI 0.92's `openapi.models.Schema`, and the fields it types `Optional[float]`. */
const SCHEMA_MODEL_V1: SchemaModel = {
  order: [
    '$ref',
    'title',
    'multipleOf',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'maxLength',
    'minLength',
    'pattern',
    'maxItems',
    'minItems',
    'uniqueItems',
    'maxProperties',
    'minProperties',
    'required',
    'enum',
    'type',
    'allOf',
    'oneOf',
    'anyOf',
    'not',
    'items',
    'properties',
    'additionalProperties',
    'description',
    'format',
    'default',
    'nullable',
    'discriminator',
    'readOnly',
    'writeOnly',
    'xml',
    'externalDocs',
    'example',
    'deprecated',
  ],
  floats: new Set(['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum']),
}

const ordered = (schema: JsonSchema) => schemaKeyOrder(schema, SCHEMA_MODEL_V1)

/** The document of the imagined app on FastAPI 0.92 + pydantic 1.10 (`get_openapi(openapi_version="3.0.2")`). */
export function buildV1Document(profile: Profile): object {
  const registry = new SchemaRegistryV1()
  const paths: JsonSchema = {}
  for (const route of API_ROUTES) {
    const item = (paths[route.path] ??= {}) as JsonSchema
    item[route.method.toLowerCase()] = operationObject(route, profile, registry)
  }
  return {
    openapi: '3.0.2',
    info: { title: 'Agent Management Console API', version: '0.1.0' },
    paths,
    components: {
      schemas: componentSchemas(registry.definitions(), SCHEMA_MODEL_V1),
      securitySchemes: { HTTPBearer: { type: 'http', scheme: 'bearer' } },
    },
  }
}

/** `Operation`'s field order: tags, summary, operationId, parameters, requestBody, responses, security. */
function operationObject(route: ApiRoute, profile: Profile, registry: SchemaRegistryV1): JsonSchema {
  const operation: JsonSchema = {
    tags: [...route.tags],
    summary: operationSummary(route),
    operationId: operationId(route),
  }
  const parameters = parameterFields(route, profile).map(({ name, location, field }) =>
    parameterObject(name, location, field, registry),
  )
  if (parameters.length > 0) operation['parameters'] = parameters
  const body = route.request.body?.(profile)
  // The body parameter is named `body`; a model without overrides is a bare `$ref`.
  if (body)
    operation['requestBody'] = {
      content: { [JSON_MEDIA_TYPE]: { schema: ordered(fieldSchemaV1('body', body, registry)) } },
      required: true,
    }
  operation['responses'] = responsesObject(route, profile, registry, parameters.length > 0 || body !== undefined)
  operation['security'] = [{ HTTPBearer: [] }]
  return operation
}

/** `Parameter`: the `ParameterBase` fields (description, required, schema), then name and in. */
function parameterObject(
  name: string,
  location: 'path' | 'query',
  field: z.ZodType,
  registry: SchemaRegistryV1,
): JsonSchema {
  const schema = fieldSchemaV1(name, field, registry)
  const parameter: JsonSchema = {}
  if (typeof schema['description'] === 'string') parameter['description'] = schema['description']
  parameter['required'] = location === 'path' || fieldInfo(field).required
  return Object.assign(parameter, { schema: ordered(schema), name, in: location })
}

/** The success response (its schema is the response field's: `Response_<operationId>`), declared errors, the 422. */
function responsesObject(route: ApiRoute, profile: Profile, registry: SchemaRegistryV1, hasInput: boolean): object {
  const status = route.response.status(profile)
  const success: JsonSchema = { description: 'Successful Response' }
  if (isBodyAllowed(status)) {
    const schema = fieldSchemaV1(`Response_${operationId(route)}`, route.response.schema, registry)
    success['content'] = { [JSON_MEDIA_TYPE]: { schema: ordered(schema) } }
  }
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
