import { afterEach } from 'vitest'
import type { RunningServer, ServerOptions } from 'agent-console-mock/server'
import { http, startTestServer } from '../../support/server.js'

/** What the memory budget tests share: their servers, a session's header and megabytes. */

export const MB = 2 ** 20

export const session = (key: string) => ({ 'x-mock-session': key })

/** The server of each test, closed after it; call once at a test file's top level (it registers the afterEach). */
export function budgetServers() {
  let current: RunningServer | undefined
  afterEach(() => current?.close())
  const servers = {
    /** The server the test started. */
    get running(): RunningServer {
      if (!current) throw new Error('no server started in this test')
      return current
    },
    /** Starts the test's server with these options. */
    async use(options: ServerOptions): Promise<RunningServer> {
      current = await startTestServer(options)
      return current
    },
    /** Starts it on a budget, ten personas a team, with its own seed: seeded worlds are shared by every server of a process. */
    start: async (maxMemoryBytes: number, seed: number) =>
      http(await servers.use({ seed, personasPerTeam: 10, maxMemoryBytes })),
  }
  return servers
}
