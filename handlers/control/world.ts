import { z } from 'zod'
import { MAX_PERSONAS_PER_TEAM, worldOptionsOver, type WorldOptions } from '../../factories/world.js'
import { jsonResponse } from '../../fastapi/http/responses.js'
import type { MockInstance } from '../../core/instance/instance.js'
import { resetWithScenarios } from '../../core/scenarios/effects.js'
import { invalidBody, readJsonBody } from './body.js'
import type { ControlRoute } from './route.js'

const ResetBody = z
  .object({ seed: z.int().optional(), personas: z.int().min(0).max(MAX_PERSONAS_PER_TEAM).optional() })
  .strict()

/**
 * The world's own routes: whether it answers, its fixtures, and a reset that returns to
 * `configured` where the body does not say otherwise.
 */
export const worldRoutes = (configured: Required<WorldOptions>): ControlRoute[] => [
  {
    method: 'GET',
    path: '/health',
    description: '{"status":"ok"}',
    answer: () => jsonResponse(200, { status: 'ok' }),
  },
  {
    method: 'GET',
    path: '/fixtures',
    description: 'the seed, ids of the seeded teams, dimensions and policies, and a token per role',
    answer: ({ instance }) => jsonResponse(200, instance.fixtures),
  },
  {
    method: 'POST',
    path: '/reset',
    description:
      'back to a freshly seeded world: {"seed", "personas"} where given, else the server\'s configured ones (and its --scenario); clears faults',
    answer: ({ request, instance }) => reset(request, instance, configured),
  },
]

/** `POST /__mock/reset {"seed", "personas"}`: a freshly seeded world with the start scenarios; answers the fixtures. */
async function reset(request: Request, instance: MockInstance, configured: Required<WorldOptions>) {
  const body = ResetBody.safeParse((await readJsonBody(request)) ?? {})
  if (!body.success) throw invalidBody(body.error)
  await resetWithScenarios(
    instance,
    worldOptionsOver({ seed: body.data.seed, personasPerTeam: body.data.personas }, configured),
  )
  return jsonResponse(200, instance.fixtures)
}
