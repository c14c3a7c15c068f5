import { RecordError, type RecordCollection } from '../../factories/build.js'
import { RECORD_SCHEMAS } from '../../model/world.js'
import { answer, arrayResponse, encodedJsonResponse, httpError } from '../../fastapi/http/responses.js'
import type { Profile } from '../../model/profile.js'
import { writeResource } from '../../fastapi/wire/encode.js'
import { readJsonBody } from './body.js'
import { recordsBytes } from '../../core/instance/memory-budget.js'
import { decodedSegment, type ControlRoute, type WorldCall } from './route.js'

const COLLECTIONS = Object.keys(RECORD_SCHEMAS) as RecordCollection[]

/** Records stored and deleted in the request's world, written as the API with this profile writes them. */
export const recordRoutes = (profile: Profile): ControlRoute[] => [
  {
    method: 'POST',
    path: '/records/{collection}',
    description: 'stores a record (an object of fields) or several (an array), defaults filled in, all or none: 201',
    answer: (call) => createRecords(call, profile),
  },
  {
    method: 'DELETE',
    path: '/records/{collection}/{id}',
    description: 'deletes a record and the records that belong to it: 204, or 404',
    answer: deleteRecord,
  },
]

/**
 * `POST /__mock/records/{collection}`: stores one record (an object of fields) or several (an
 * array), each the factories' defaults under the fields given, all or none. Answers 201 with
 * what was stored, written as the API writes records; 422 naming every bad field.
 */
async function createRecords({ request, instance, params }: WorldCall, profile: Profile) {
  const collection = collectionNamed(params)
  const body = await readJsonBody(request)
  if (typeof body !== 'object' || body === null) {
    throw httpError(400, 'The body must be a record (an object of fields) or an array of them')
  }
  const count = Array.isArray(body) ? body.length : 1
  // Held until stored: batches sent at once must not each see the same room.
  const release = instance.hold(recordsBytes(collection, count), `${count} more record(s) of ${collection}`)
  try {
    const stored = await instance.records.create(collection, body)
    const written = stored.map((record) => writeResource(RECORD_SCHEMAS[collection], record, profile))
    return Array.isArray(body) ? arrayResponse(201, written) : encodedJsonResponse(201, written[0] as string)
  } catch (error) {
    if (error instanceof RecordError) throw httpError(422, error.message)
    throw error
  } finally {
    release()
  }
}

/** `DELETE /__mock/records/{collection}/{id}`: deletes a record and those that belong to it (204), or 404. */
async function deleteRecord({ instance, params }: WorldCall) {
  const collection = collectionNamed(params)
  const id = decodedSegment(params.id ?? '')
  if (!(await instance.records.delete(collection, id))) {
    throw httpError(404, `No record of ${collection} has the id ${JSON.stringify(id)}`)
  }
  return answer(null, 204, {})
}

/** The path's `{collection}`, decoded; an unknown collection answers 404. */
function collectionNamed(params: WorldCall['params']): RecordCollection {
  const collection = decodedSegment(params.collection ?? '')
  if (!COLLECTIONS.includes(collection as RecordCollection)) {
    throw httpError(404, `No collection ${JSON.stringify(collection)}: use one of ${COLLECTIONS.join(', ')}`)
  }
  return collection as RecordCollection
}
