import type { TokenCheck } from '../model/auth/tokens.js'
import type { Fixtures } from '../factories/fixtures.js'
import type { MockInstance } from './instance/instance.js'
import type { World } from '../model/world.js'
import { referenceTable } from '../verify/recording/references.js'
import { ANONYMOUS, bearerToken, INVALID, roleOfClaims } from '../verify/recording/roles.js'
import type { Exchange } from './exchange.js'
import type { Outcome } from '../fastapi/http/reply.js'

/** What the API knows of an operation it answered, for the instance's recorded contract. */
export interface AnsweredOperation {
  operation: string
  exchange: Exchange
  body: Uint8Array | undefined
  response: Outcome
  world: World
  verifyToken: (token: string) => TokenCheck
}

/** Hands an answered operation to the instance's contract recorder (core/journal/recorder.ts). */
export function recordOperation(instance: MockInstance, answered: AnsweredOperation): void {
  const { exchange, world } = answered
  const authorization = exchange.request.headers.get('authorization')
  instance.recorder.record({
    operation: answered.operation,
    method: exchange.method,
    url: exchange.url,
    body: answered.body,
    authorization,
    role: () => roleOf(authorization, instance.fixtures, world, answered.verifyToken),
    response: answered.response,
    world,
  })
}

/** The role a token stands for: a fixture token's name, else one read from its claims. */
async function roleOf(
  authorization: string | null,
  fixtures: Fixtures,
  world: World,
  verifyToken: (token: string) => TokenCheck,
): Promise<string> {
  const token = bearerToken(authorization)
  if (token === undefined) return ANONYMOUS
  const fixture = Object.entries(fixtures.tokens).find(([, value]) => value === token)?.[0]
  if (fixture === 'expired') return INVALID
  if (fixture !== undefined) return fixture
  const claims = await verifyToken(token)
  return claims ? roleOfClaims(claims, referenceTable(world.referenced())) : INVALID
}
