import { jsonResponse } from '../../fastapi/http/responses.js'
import { OPERATION_NAMES } from '../../model/api/routes.js'
import { faultsConfigFor } from '../../core/instance/faults.js'
import { invalidBody, readJsonBody } from './body.js'
import type { ControlRoute, WorldCall } from './route.js'

/** The faults injected into the request's world; per operation by the names of its own and `served` ones. */
export const faultRoutes = (served: readonly string[]): ControlRoute[] => {
  const config = faultsConfigFor([...OPERATION_NAMES, ...served])
  return [
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
      answer: (call) => setFaults(call, config),
    },
  ]
}

/** `PUT /__mock/faults`: replaces the world's faults; answers them. */
async function setFaults({ request, instance }: WorldCall, schema: ReturnType<typeof faultsConfigFor>) {
  const config = schema.safeParse(await readJsonBody(request))
  if (!config.success) throw invalidBody(config.error)
  instance.faults.set(config.data)
  return jsonResponse(200, instance.faults.config)
}
