import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import type { RequestHandler } from 'msw'
import { startServer, type RunningServer, type ServerOptions } from '../../../server/start.js'
import type { VerifyOptions } from '../../../verify/index.js'

/** The mock's standalone server on a free loopback port, silent. */
export async function startMock(
  options: Omit<ServerOptions, 'port' | 'logger'> & { handlers?: RequestHandler[] } = {},
): Promise<RunningServer> {
  const { handlers, ...rest } = options
  const running = await startServer({ ...rest, port: 0, logger: { info() {}, error() {} } })
  if (handlers) running.use(...handlers)
  return running
}

/** Everything verify can be given about a mock: its seeded ids and fixture tokens. */
export function verifyOptionsFor(running: RunningServer, extra: Partial<VerifyOptions> = {}): VerifyOptions {
  const { fixtures } = running.sessions.primary
  return {
    baseUrl: running.url,
    token: fixtures.tokens.team_reader,
    policyId: fixtures.policies[0]!.id,
    otherPolicyId: fixtures.policies.find((policy) => policy.team_id !== fixtures.teams[0]!.id)!.id,
    dimensionId: fixtures.dimensions[0]!.id,
    adminToken: fixtures.tokens.super_admin,
    noPermToken: fixtures.tokens.no_permissions,
    allowWrites: true,
    ...extra,
  }
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
