import { addValues, type NewValue } from '../model/bulk-add.js'
import { BulkAddPath, BulkAddValues } from '../model/requests.js'
import { DemographicValue } from '../model/schemas.js'
import { readBody } from '../fastapi/body.js'
import { pathReader, throwIfInvalid, validateParams } from '../fastapi/params.js'
import { MISSING, validatePython } from '../pydantic/validate.js'
import { pydanticError } from '../pydantic/errors.js'
import { arrayResponse, httpError } from '../fastapi/responses.js'
import { authenticate, requireSuperAdmin } from '../fastapi/security.js'
import type { Operation } from './operation.js'
import { writeResource } from '../wire/encode.js'

/**
 * `POST /v1/demographics/{dimension_id}/values/bulk`: adds values to a dimension, all or
 * nothing. The body is read (and invalid JSON refused) before authentication, as FastAPI does.
 */
export const bulkAddValues: Operation = async ({ request, params, world, profile, verifyToken }) => {
  const body = await readBody(request)
  const user = await authenticate(request, profile, verifyToken)
  requireSuperAdmin(user)
  const path = validateParams([{ source: 'path', schema: BulkAddPath, read: pathReader(params) }], profile)
  const items = body === MISSING ? { ok: false as const, errors: [pydanticError('missing', ['body'], null)] } : validatePython(BulkAddValues, body, ['body'], profile)
  throwIfInvalid([...path.errors, ...(items.ok ? [] : items.errors)])
  const dimension = world.dimensionById().get(path.values.dimension_id as string)
  if (!dimension) throw httpError(404, 'Dimension not found')
  const { values } = (items as { value: { values: NewValue[] } }).value
  const result = await addValues(world, dimension.id, values, profile.bulkDuplicates)
  if ('duplicates' in result) throw httpError(409, `Duplicate values: ${result.duplicates.join(', ')}`)
  return arrayResponse(
    profile.bulkAddStatus,
    result.added.map((value) => writeResource(DemographicValue, value, profile)),
  )
}
