import type { z } from 'zod'
import type { ApiRoute } from '../../model/api/routes.js'
import { statusPhrase } from '../http/status-phrases.js'
import type { Profile } from '../../model/profile.js'
import { pythonTitle } from '../pydantic/model-names.js'
import { PyDict, type PyValue } from '../python/value.js'

/** What FastAPI's `get_openapi_path` writes the same way in every generation (0.92 → 0.128). */

export const JSON_MEDIA_TYPE = 'application/json'

/** `fastapi.utils.generate_unique_id`: the endpoint name and path, every non-word character an underscore. */
export function operationId(route: ApiRoute): string {
  const stem = `${route.name}${route.path}`.replace(/[^\p{L}\p{N}_]/gu, '_')
  return `${stem}_${route.method.toLowerCase()}`
}

/** `generate_operation_summary`: the endpoint name, title-cased. */
export const operationSummary = (route: ApiRoute): string => pythonTitle(route.name.replaceAll('_', ' '))

/** `fastapi.utils.is_body_allowed_for_status_code`. */
export function isBodyAllowed(status: number): boolean {
  return !(status < 200 || status === 204 || status === 205 || status === 304)
}

/** The route's parameter groups: path first, then query, each in signature (shape) order. */
export function parameterFields(
  route: ApiRoute,
  profile: Profile,
): Array<{ name: string; location: 'path' | 'query'; field: z.ZodType }> {
  const groups = [
    ['path', route.request.path],
    ['query', route.request.query?.(profile)],
  ] as const
  return groups.flatMap(([location, object]) =>
    Object.entries(object?.shape ?? {}).map(([name, field]) => ({ name, location, field: field as z.ZodType })),
  )
}

/**
 * The error answers the profile says the route declares (`declaredErrors`), as an app writes them:
 * `responses={401: {"description": "Unauthorized"}}`, the description being the status's phrase (what
 * FastAPI writes for `responses={401: {}}` too; "Additional Response" for a code Python has no phrase for).
 * In the profile's order, each status once.
 */
export function declaredErrorResponses(route: ApiRoute, profile: Profile): Array<[string, { description: string }]> {
  const statuses = [...new Set(profile.declaredErrors[route.name] ?? [])]
  return statuses.map((status) => {
    const phrase = statusPhrase(status)
    return [String(status), { description: phrase === 'Error' ? 'Additional Response' : phrase }]
  })
}

/**
 * The responses of an operation in FastAPI's order: the success response, the declared ones, then the 422
 * when the route has input and declares no 422 (nor `4XX`/`default`) itself.
 */
export function operationResponses(
  success: [string, object],
  declared: Array<[string, object]>,
  validationError: (() => object) | undefined,
): Record<string, object> {
  const entries = [success, ...declared]
  if (validationError && !entries.some(([status]) => status === '422')) entries.push(['422', validationError()])
  return pythonOrdered(entries)
}

/**
 * A JS object lists integer-like keys in ascending order, whatever the insertion order; FastAPI keeps the
 * order it wrote them in (a declared 500 comes before the 422). Where the two differ, the responses are a
 * `PyDict` (written in its own order) that also carries them as properties, for readers of the document.
 */
function pythonOrdered(entries: Array<[string, object]>): Record<string, object> {
  const plain: Record<string, object> = Object.fromEntries(entries)
  const sameOrder = Object.keys(plain).every((status, index) => status === entries[index]![0])
  return sameOrder ? plain : Object.assign(new PyDict(entries as Array<[string, PyValue]>), plain)
}
