import { jsonResponse } from '../../fastapi/http/responses.js'
import { FaultsConfig } from '../../core/instance/faults.js'
import { invalidBody, readJsonBody } from './body.js'
import type { ControlRoute, WorldCall } from './route.js'

/** The faults injected into the request's world. */
export const faultRoutes: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/faults',
    description: 'the injected latency, errors and dropped connections',
    answer: ({ instance }) => jsonResponse(200, instance.faults.config),
  },
  {
    method: 'PUT',
    path: '/faults',
    description: 'sets latency, errors and dropped connections, globally or per operation',
    answer: setFaults,
  },
]

/** `PUT /__mock/faults`: replaces the world's faults; answers them. */
async function setFaults({ request, instance }: WorldCall) {
  const config = FaultsConfig.safeParse(await readJsonBody(request))
  if (!config.success) throw invalidBody(config.error)
  instance.faults.set(config.data)
  return jsonResponse(200, instance.faults.config)
}
