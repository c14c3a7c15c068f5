import type { Outcome } from '../../fastapi/http/reply.js'
import { answer, httpError, jsonResponse } from '../../fastapi/http/responses.js'
import { CONTRACT_FORMATS, exportContract, type ContractFormat } from '../../core/journal/contract-export.js'
import type { MockInstance } from '../../core/instance/instance.js'
import type { Profile } from '../../model/profile.js'
import type { ControlRoute } from './route.js'

/**
 * The request's world's interactions as a recorded contract, written as the API with this profile writes them
 * (`served`: the OpenAPI document the mock serves, whose response models a Pact file's served interactions take).
 */
export const contractRoutes = (profile: Profile, served: object | undefined): ControlRoute[] => [
  {
    method: 'GET',
    path: '/contract',
    description:
      'the distinct API interactions of this world so far, as a recorded contract (ids as references, tokens as roles); ?format=pact: a Pact v4 file',
    answer: ({ url, instance }) => contractExport(url, instance, profile, served),
  },
  {
    method: 'DELETE',
    path: '/contract',
    description: 'starts the recorded contract over',
    answer: ({ instance }) => clearContract(instance),
  },
]

/**
 * `GET /__mock/contract`: the distinct interactions this world's requests made, as a recorded contract
 * (verify/recording/format.ts) or, with `?format=pact`, a Pact v4 file; `X-Contract-Dropped` says how many
 * were not kept because the recorder was full.
 */
async function contractExport(
  url: URL,
  instance: MockInstance,
  profile: Profile,
  served: object | undefined,
): Promise<Outcome> {
  const format = url.searchParams.get('format') ?? 'contract'
  if (!CONTRACT_FORMATS.includes(format as ContractFormat))
    throw httpError(400, `Unknown format "${format}": use ${CONTRACT_FORMATS.join(' or ')}`)
  const headers = { 'x-contract-dropped': String(instance.recorder.dropped) }
  return jsonResponse(200, await exportContract(instance, profile, format as ContractFormat, served), headers)
}

/** `DELETE /__mock/contract`: starts the recording over. */
function clearContract(instance: MockInstance): Outcome {
  instance.recorder.clear()
  return answer(null, 204, {})
}
