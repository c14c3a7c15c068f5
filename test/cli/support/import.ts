import { execFile } from 'node:child_process'
import { CLI, type CliServer } from '../../reliability/support/cli.js'

/** What a source mock hands an import: the ids of team 0, its policies, a dimension, and the tokens. */
export interface SourceFixtures {
  teams: Array<{ id: string }>
  policies: Array<{ id: string; team_id: string }>
  dimensions: Array<{ id: string }>
  tokens: Record<'team_reader' | 'super_admin' | 'expired', string>
}

export const fixturesOf = async (server: CliServer): Promise<SourceFixtures> =>
  (await (await fetch(`${server.url}/__mock/fixtures`)).json()) as SourceFixtures

/** Runs `agent-console-mock import` to its end, the token in the environment as CI would pass it. */
export function importCli(args: string[], token?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env['PATH'] ?? '', ...(token ? { AGENT_CONSOLE_IMPORT_TOKEN: token } : {}) }
  return new Promise((done) => {
    // A hang guard, not a bound on how long an import takes.
    execFile(process.execPath, [CLI, 'import', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
    })
  })
}

/** One answer as the wire carried it: status, content type and the body's bytes. */
export async function wire(url: string, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers } })
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() }
}

/** Sends a state file to a server's control API (`PUT /__mock/state`), into a session when one is named. */
export async function putState(server: CliServer, text: string, session?: string): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (session) headers['x-mock-session'] = session
  const res = await fetch(`${server.url}/__mock/state`, { method: 'PUT', headers, body: text })
  await res.arrayBuffer()
  return res.status
}
