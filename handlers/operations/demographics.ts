import { addValues, type NewValue } from '../../model/bulk-add.js'
import { BulkAddPath, bulkAddValues as bulkAddBody } from '../../model/requests.js'
import { DemographicValue } from '../../model/schemas.js'
import { readBody } from '../../fastapi/http/body.js'
import { errorText } from '../../fastapi/http/error-texts.js'
import { pathReader, throwIfInvalid, validateParams } from '../../fastapi/http/params.js'
import { missingBody, unwritableValues, validateInput, type Outcome } from '../../fastapi/pydantic/dialect.js'
import { MISSING } from '../../fastapi/pydantic/validate.js'
import { arrayResponse, httpError } from '../../fastapi/http/responses.js'
import { authenticate, requireSuperAdmin } from '../../fastapi/http/security.js'
import type { Operation } from '../../core/operation.js'
import { writeResource } from '../../fastapi/wire/encode.js'

/**
 * `POST /v1/demographics/{dimension_id}/values/bulk`: adds values to a dimension, all or
 * nothing. The body is read (and invalid JSON refused) before authentication, as FastAPI does.
 */
export const bulkAddValues: Operation = async ({ request, params, world, profile, verifyToken, now, intercept }) => {
  const body = await readBody(request, profile)
  const user = await authenticate(request, profile, verifyToken)
  requireSuperAdmin(user, profile)
  const path = validateParams([{ source: 'path', schema: BulkAddPath, read: pathReader(params) }], profile)
  const items: Outcome =
    body === MISSING
      ? { ok: false, errors: [missingBody(profile)] }
      : validateInput(bulkAddBody(profile), body, ['body'], profile)
  throwIfInvalid([...path.errors, ...(items.ok ? [] : items.errors)])
  const accepted = (items as { value: { values: NewValue[] } }).value
  const overridden = intercept && (await intercept({ query: {}, params: path.values, body: accepted, claims: user }))
  if (overridden) return overridden
  const dimension = world.dimensionById().get(path.values.dimension_id as string)
  if (!dimension) throw httpError(404, errorText(profile, 'dimensionNotFound'))
  throwIfInvalid(unwritableValues(profile, accepted, ['body']))
  const { values } = accepted
  const result = await addValues(world, dimension.id, values, profile.bulkDuplicates, now)
  if ('duplicates' in result)
    throw httpError(409, errorText(profile, 'duplicateValues', { values: result.duplicates.join(', ') }))
  return arrayResponse(
    profile.bulkAddStatus,
    result.added.map((value) => writeResource(DemographicValue, value, profile)),
  )
}
