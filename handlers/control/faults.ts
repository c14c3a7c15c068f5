import type { z } from 'zod'
import { jsonResponse } from '../../fastapi/http/responses.js'
import { OPERATION_NAMES } from '../../model/api/routes.js'
import { faultsConfigFor } from '../../core/instance/faults.js'
import { invalidBody, readJsonBody } from './body.js'
import type { ControlRoute, WorldCall } from './route.js'

/** The faults injected into the request's world; per operation by the names of its own and `served` ones. */
export const faultRoutes = (served: readonly string[]): ControlRoute[] => {
  const operations = [...OPERATION_NAMES, ...served] as const
  const config = faultsConfigFor(operations)
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
      answer: (call) => setFaults(call, config, operations),
    },
  ]
}

/** `PUT /__mock/faults`: replaces the world's faults; answers them. */
async function setFaults(
  { request, instance }: WorldCall,
  schema: ReturnType<typeof faultsConfigFor>,
  operations: readonly string[],
) {
  const body = await readJsonBody(request)
  // zod's records leave a `__proto__` key out unseen, where any other unknown name is refused: it is refused too.
  if (hasOwnKey((body as { operations?: unknown } | undefined)?.operations, '__proto__'))
    throw invalidBody({ issues: [unknownOperations(['__proto__'], operations)] })
  const config = schema.safeParse(body)
  if (!config.success) throw invalidBody(withOperationsNamed(config.error, operations))
  instance.faults.set(config.data)
  return jsonResponse(200, instance.faults.config)
}

/** An unknown key of `operations` is an operation's name mistyped: the refusal lists the names there are. */
function withOperationsNamed(error: z.ZodError, operations: readonly string[]): Pick<z.ZodError, 'issues'> {
  const issues = error.issues.map((issue) =>
    issue.code === 'unrecognized_keys' && issue.path.join('.') === 'operations'
      ? { ...issue, ...unknownOperations(issue.keys, operations) }
      : issue,
  )
  return { issues }
}

/** The issue of operations named that there are not, listing those there are. */
const unknownOperations = (names: readonly string[], operations: readonly string[]) => ({
  path: ['operations'],
  message: `no operation named ${names.map((name) => JSON.stringify(name)).join(', ')}; known: ${operations.join(', ')}`,
})

const hasOwnKey = (value: unknown, key: string): boolean =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, key)
