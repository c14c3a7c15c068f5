import { RecordError, type RecordCollection } from '../../factories/build.js'
import { RECORD_SCHEMAS } from '../../model/world.js'
import { answer, arrayResponse, encodedJsonResponse, httpError } from '../../fastapi/http/responses.js'
import type { MockInstance } from '../../core/instance/instance.js'
import type { Profile } from '../../model/profile.js'
import { writeResource } from '../../fastapi/wire/encode.js'
import { readJsonBody } from './body.js'

const COLLECTIONS = Object.keys(RECORD_SCHEMAS) as RecordCollection[]

/**
 * `POST /__mock/records/{collection}`: stores one record (an object of fields) or several (an
 * array), each the factories' defaults under the fields given, all or none. Answers 201 with
 * what was stored, written as the API writes records; 422 naming every bad field.
 */
export async function createRecords(request: Request, url: URL, instance: MockInstance, profile: Profile) {
  const [collection] = pathParams(url)
  const body = await readJsonBody(request)
  if (typeof body !== 'object' || body === null) {
    throw httpError(400, 'The body must be a record (an object of fields) or an array of them')
  }
  try {
    const stored = await instance.records.create(collection, body)
    const written = stored.map((record) => writeResource(RECORD_SCHEMAS[collection], record, profile))
    return Array.isArray(body) ? arrayResponse(201, written) : encodedJsonResponse(201, written[0] as string)
  } catch (error) {
    if (error instanceof RecordError) throw httpError(422, error.message)
    throw error
  }
}

/** `DELETE /__mock/records/{collection}/{id}`: deletes a record and those that belong to it (204), or 404. */
export async function deleteRecord(_request: Request, url: URL, instance: MockInstance) {
  const [collection, id] = pathParams(url)
  if (!(await instance.records.delete(collection, id ?? ''))) {
    throw httpError(404, `No record of ${collection} has the id ${JSON.stringify(id)}`)
  }
  return answer(null, 204, {})
}

/** `{collection}` and `{id}` of `/__mock/records/{collection}/{id}`; an unknown collection answers 404. */
function pathParams(url: URL): [RecordCollection, string | undefined] {
  const [, , , collection = '', id] = url.pathname.split('/').map(decodeSegment)
  if (!COLLECTIONS.includes(collection as RecordCollection)) {
    throw httpError(404, `No collection ${JSON.stringify(collection)}: use one of ${COLLECTIONS.join(', ')}`)
  }
  return [collection as RecordCollection, id]
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
