import type { Outcome } from '../../fastapi/http/reply.js'
import { OPERATION_NAMES, type OperationName } from '../../model/api/routes.js'
import { answer, httpError, jsonResponse } from '../../fastapi/http/responses.js'
import type { MockInstance } from '../../core/instance/instance.js'
import { InvalidOverrideError, type PreparedAnswer } from '../../core/overrides/answer.js'
import { overrideBytes } from '../../core/overrides/index.js'
import type { OverrideResult } from '../../core/overrides/types.js'
import { readJsonBody } from './body.js'
import { decodedSegment, type ControlRoute } from './route.js'

/** Prepares an override's answer for a served document's operation, by its name. */
type ServedOverrides = ReadonlyMap<string, (result: unknown) => PreparedAnswer>

/**
 * The typed overrides of the request's world, of the API's own operations and the `served` ones of a
 * document; an operation named in the path is decoded.
 */
export const overrideRoutes = (served: ServedOverrides): ControlRoute[] => [
  {
    method: 'GET',
    path: '/overrides',
    description: 'the typed overrides of this world, by operation (a function set in code as {"function": name})',
    answer: ({ instance }) => overridesState(instance),
  },
  {
    method: 'PUT',
    path: '/overrides/{operation}',
    description:
      'answers the operation with {"status", "body", "headers"} or {"error": "not_found", ...} after auth and validation, as FastAPI would',
    answer: ({ request, instance, params }) =>
      putOverride(request, instance, decodedSegment(params.operation ?? ''), served),
  },
  {
    method: 'DELETE',
    path: '/overrides',
    description: 'drops every override of this world: 204',
    answer: ({ instance }) => deleteOverrides(instance, served),
  },
  {
    method: 'DELETE',
    path: '/overrides/{operation}',
    description: "drops the operation's override: 204; 404 for an unknown operation",
    answer: ({ instance, params }) => deleteOverrides(instance, served, decodedSegment(params.operation ?? '')),
  },
]

/**
 * `GET /__mock/overrides`: the overrides of this world (the request's session), by operation.
 * @example {"overrides":{"list_personas":{"status":200,"body":{"results":[],"total":0}}}}
 */
const overridesState = (instance: MockInstance): Outcome => jsonResponse(200, { overrides: instance.overrides.list() })

/**
 * `PUT /__mock/overrides/{operation}` with `{"status", "body", "headers"}` or `{"error": "not_found", ...}`:
 * the operation answers it from now on (after authentication and validation), as FastAPI writes it.
 * 404 for an unknown operation; 400 naming each problem for a body the operation cannot answer.
 */
async function putOverride(
  request: Request,
  instance: MockInstance,
  operation: string,
  served: ServedOverrides,
): Promise<Outcome> {
  const name = operationNamed(operation, served)
  const body = await readJsonBody(request)
  instance.admit(overrideBytes(body), 'this override')
  try {
    const prepare = served.get(name)
    if (prepare) instance.overrides.setPrepared(name, prepare(body), body)
    else instance.overrides.set(name as OperationName, body as OverrideResult<OperationName>)
  } catch (error) {
    if (error instanceof InvalidOverrideError) throw httpError(400, error.message)
    throw error
  }
  return overridesState(instance)
}

/** `DELETE /__mock/overrides[/{operation}]`: 204; the operations answer as the API does again. */
function deleteOverrides(instance: MockInstance, served: ServedOverrides, operation?: string): Outcome {
  instance.overrides.clear(operation === undefined ? undefined : operationNamed(operation, served))
  return answer(null, 204, {})
}

function operationNamed(operation: string, served: ServedOverrides): string {
  const known = [...OPERATION_NAMES, ...served.keys()]
  if (known.includes(operation)) return operation
  throw httpError(404, `No operation named ${JSON.stringify(operation)}; known: ${known.join(', ')}`)
}
