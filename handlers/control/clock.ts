import type { Outcome } from '../../fastapi/http/reply.js'
import { z } from 'zod'
import { httpError, jsonResponse } from '../../fastapi/http/responses.js'
import type { Clock } from '../../core/instance/clock.js'
import { invalidBody, readJsonBody } from './body.js'
import type { ControlRoute } from './route.js'

const ClockBody = z
  .object({
    /** An ISO 8601 time, or Unix seconds. */
    now: z.union([z.string(), z.number()]).optional(),
    frozen: z.boolean().optional(),
  })
  .strict()
  .refine((body) => body.now !== undefined || body.frozen !== undefined, 'give "now", "frozen" or both')
const AdvanceBody = z.object({ seconds: z.number().min(0) }).strict()

/** The clock of the request's world. */
export const clockRoutes: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/clock',
    description: 'the world\'s clock: {"now" (ISO 8601), "epoch_seconds", "frozen"}',
    answer: ({ instance }) => clockState(instance.clock),
  },
  {
    method: 'PUT',
    path: '/clock',
    description: 'sets the clock: {"now": ISO 8601 or Unix seconds, "frozen": true|false}',
    answer: ({ request, instance }) => setClock(request, instance.clock),
  },
  {
    method: 'POST',
    path: '/clock/advance',
    description: 'moves the clock forward, frozen or not: {"seconds": n}',
    answer: ({ request, instance }) => advanceClock(request, instance.clock),
  },
]

/** `GET /__mock/clock`: now, as ISO 8601 and Unix seconds, and whether the clock is frozen. */
const clockState = (clock: Clock): Outcome => jsonResponse(200, clock.state())

/**
 * `PUT /__mock/clock {"now": "2026-03-01T09:00:00Z" | 1772355600, "frozen": true}`: sets the time
 * (a number is Unix seconds) and stops or starts the clock; `frozen` alone freezes or resumes it where it is.
 */
async function setClock(request: Request, clock: Clock): Promise<Outcome> {
  const body = ClockBody.safeParse(await readJsonBody(request))
  if (!body.success) throw invalidBody(body.error)
  const { now, frozen } = body.data
  onRangeError(() => {
    if (now === undefined) frozen ? clock.freeze() : clock.resume()
    else clock.set(typeof now === 'number' ? now * 1000 : now, { frozen })
  })
  return clockState(clock)
}

/** `POST /__mock/clock/advance {"seconds": 3600}`: moves the clock forward, frozen or not. */
async function advanceClock(request: Request, clock: Clock): Promise<Outcome> {
  const body = AdvanceBody.safeParse(await readJsonBody(request))
  if (!body.success) throw invalidBody(body.error)
  onRangeError(() => clock.advance(body.data.seconds))
  return clockState(clock)
}

/** A time the clock refuses (not a date, before 1970, after 9999) answers 400 with the clock's reason. */
function onRangeError(change: () => void): void {
  try {
    change()
  } catch (error) {
    if (error instanceof RangeError) throw httpError(400, error.message)
    throw error
  }
}
