import { httpError, jsonResponse } from '../../fastapi/http/responses.js'
import { StateError } from '../../model/state/index.js'
import type { DocumentedCheck } from '../../core/instance/instance.js'
import type { ControlRoute, WorldCall } from './route.js'
import { stateExport } from './state-export.js'

/** The whole state of the request's world, out and in; each core streams its own exports (see `stateExport`). */
export const stateRoutes = (checkDocumented: DocumentedCheck | undefined): ControlRoute[] => [
  {
    method: 'GET',
    path: '/state',
    description: 'the whole world as JSON',
    answer: stateExport(),
  },
  {
    method: 'PUT',
    path: '/state',
    description: 'replaces the whole world (validated: an invalid state answers 400)',
    answer: (call) => importState(call, checkDocumented),
  },
]

/** `PUT /__mock/state`: the world becomes the state file's; an invalid one answers 400 and changes nothing. */
async function importState({ request, instance }: WorldCall, checkDocumented: DocumentedCheck | undefined) {
  try {
    await instance.importState(await request.text(), checkDocumented)
  } catch (error) {
    if (error instanceof StateError) throw httpError(400, `Invalid state: ${error.message}`)
    throw error
  }
  return jsonResponse(200, instance.fixtures)
}
