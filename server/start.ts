import { createServer, type Server } from 'node:http'
import type { WorldOptions } from '../factories/world.js'
import { createMockApp, type AppOptions, type MockApp } from './app.js'
import { controlTokenFor, ownHostNames } from './exposure.js'
import { StatePersistence } from './persistence/index.js'
import { durableAnswers } from './persistence/answers.js'
import { closeServer, serverUrl } from './http-server.js'

export interface ServerOptions extends AppOptions {
  /** @default 4010 */
  port?: number
  /** Only loopback unless told otherwise. @default '127.0.0.1' */
  host?: string
  /** Keep the default world in this file: loaded at start; every change on disk before it is answered. */
  stateFile?: string
  /** Accept the public development JWT secret on a server bound beyond loopback. @default false */
  insecureDevSecret?: boolean
}

export interface RunningServer extends MockApp {
  server: Server
  /** The base URL the server answers on, e.g. `http://127.0.0.1:4010`. */
  url: string
  persistence?: StatePersistence
  /** The `X-Mock-Control-Token` the control API demands (a server bound beyond loopback), if any. */
  controlToken?: string
  /**
   * Set when the state file held a world of another seed or size than the configured ones (`--seed`,
   * `--personas`): the state file's world is served, and a reset returns to the configured ones.
   */
  stateFileConflict?: string
  /**
   * Stops accepting requests, closes connections, writes the state file a last time.
   * @throws Error when changes could not be written to the state file during the run (they were refused)
   */
  close(): Promise<void>
}

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/**
 * Starts the standalone mock server.
 * @example const running = await startServer({ port: 0, seed: 7 }); await running.close()
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST
  const controlToken = controlTokenFor({ ...options, host })
  const allowedHosts = [...(options.allowedHosts ?? []), ...ownHostNames(host)]
  const mock = await createMockApp({ ...options, controlToken, allowedHosts })
  const persistence = options.stateFile
    ? new StatePersistence(options.stateFile, mock.sessions.primary, (message, error) =>
        (options.logger ?? console).error(message, error),
      )
    : undefined
  let stateFileConflict: string | undefined
  if (persistence && options.stateFile) {
    if (await persistence.load()) {
      stateFileConflict = conflictOf(
        options.stateFile,
        mock.sessions.primary.worldOptions,
        mock.core.settings.configuredWorld,
      )
      if (stateFileConflict) (options.logger ?? console).info?.(`agent-console-mock: ${stateFileConflict}`)
    }
    mock.beforeSend.push(durableAnswers(persistence))
  }
  const server = await listen(mock, options.port ?? DEFAULT_PORT, host).catch(async (error) => {
    await persistence?.close().catch(() => undefined)
    throw error
  })
  return {
    ...mock,
    server,
    url: serverUrl(server),
    persistence,
    controlToken,
    stateFileConflict,
    async close() {
      await closeServer(server)
      await persistence?.close()
    },
  }
}

/**
 * What a start says when the loaded state file holds a world of another seed or size than the
 * configured ones, which it wins over; undefined when they agree.
 */
function conflictOf(
  stateFile: string,
  loaded: Required<WorldOptions>,
  configured: Required<WorldOptions>,
): string | undefined {
  const overridden = [
    ...(loaded.seed === configured.seed ? [] : [`--seed ${configured.seed}`]),
    ...(loaded.personasPerTeam === configured.personasPerTeam ? [] : [`--personas ${configured.personasPerTeam}`]),
  ]
  if (overridden.length === 0) return undefined
  return (
    `${stateFile} holds a world of seed ${loaded.seed} with ${loaded.personasPerTeam} personas per team, ` +
    `served instead of the configured ${overridden.join(' ')}; POST /__mock/reset starts over with seed ` +
    `${configured.seed} and ${configured.personasPerTeam} personas per team`
  )
}

function listen({ app }: MockApp, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer({ maxHeaderSize: 256 * 1024 }, app).listen(port, host) // the head uvicorn takes at most
    server.once('listening', () => resolve(server))
    server.once('error', reject)
  })
}
