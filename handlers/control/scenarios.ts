import type { Outcome } from '../../fastapi/http/reply.js'
import { z } from 'zod'
import type { WorldOptions } from '../../factories/world.js'
import { httpError, jsonResponse } from '../../fastapi/http/responses.js'
import type { MockInstance } from '../../core/instance/instance.js'
import { selectScenarios } from '../../core/scenarios/effects.js'
import { type ScenarioRegistry, UnknownScenarioError } from '../../core/scenarios/index.js'
import { invalidBody, readJsonBody } from './body.js'
import type { ControlRoute } from './route.js'

const ScenarioBody = z.object({ scenarios: z.array(z.string()) }).strict()

/** The scenarios known, and those selected for the request's world (which starts over from `configured`). */
export const scenarioRoutes = (registry: ScenarioRegistry, configured: Required<WorldOptions>): ControlRoute[] => [
  {
    method: 'GET',
    path: '/scenarios',
    description: 'every scenario known (built-in and --config), with its description',
    server: () => listScenarios(registry),
  },
  {
    method: 'GET',
    path: '/scenario',
    description: 'the scenarios selected for this world: {"scenarios": [names]}',
    answer: ({ instance }) => selectedScenarios(instance),
  },
  {
    method: 'PUT',
    path: '/scenario',
    description: 'a freshly seeded world with these scenarios applied in order: {"scenarios": ["empty-team", "slow"]}',
    answer: ({ request, instance }) => selectScenario(request, instance, registry, configured),
  },
]

/**
 * `GET /__mock/scenarios`: every scenario the mock knows, with its description.
 * @example {"scenarios":[{"name":"empty-team","description":"the first team has no personas ..."}]}
 */
const listScenarios = (registry: ScenarioRegistry): Outcome =>
  jsonResponse(200, {
    scenarios: registry.list().map(({ name, description }) => ({ name, description })),
  })

/** `GET /__mock/scenario`: the scenarios selected for the request's world, in the order applied. */
const selectedScenarios = (instance: MockInstance): Outcome =>
  jsonResponse(200, { scenarios: instance.scenarios.names })

/**
 * `PUT /__mock/scenario {"scenarios": ["empty-team", "slow"]}`: the request's world (its session's)
 * starts over from the configured seed and size, faults cleared, with these scenarios applied in
 * order; `[]` leaves the plain seeded world. 400 naming the unknown ones and listing the known ones.
 */
async function selectScenario(
  request: Request,
  instance: MockInstance,
  registry: ScenarioRegistry,
  world: Required<WorldOptions>,
): Promise<Outcome> {
  const body = ScenarioBody.safeParse(await readJsonBody(request))
  if (!body.success) throw invalidBody(body.error)
  try {
    await selectScenarios(instance, registry.resolve(body.data.scenarios), world)
  } catch (error) {
    if (error instanceof UnknownScenarioError) throw httpError(400, error.message)
    throw error
  }
  return selectedScenarios(instance)
}
