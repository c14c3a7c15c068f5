import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startCli } from '../reliability/support/cli.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-banner-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

it('prints a control API link that lists the control routes', async () => {
  const server = await startCli(['--port', '0', '--quiet', '--personas', '2'])
  try {
    const link = /control API: (\S+?)\)/.exec(server.output())?.[1]
    expect(link).toBe(`${server.url}/__mock/`)
    const res = await fetch(link!)
    expect(res.status).toBe(200)
    const { routes } = (await res.json()) as { routes: Array<{ method: string; path: string }> }
    expect(routes).toContainEqual(expect.objectContaining({ method: 'GET', path: '/__mock/sessions' }))
  } finally {
    await server.stop()
  }
})

it('reports in the banner and the log a --seed that a loaded state file overrides', async () => {
  const stateFile = join(folder, 'state.json')
  const first = await startCli(['--port', '0', '--quiet', '--personas', '2', '--seed', '3', '--state-file', stateFile])
  try {
    expect((await fetch(`${first.url}/__mock/reset`, { method: 'POST' })).status).toBe(200)
    expect(first.output()).not.toContain('NOTE:')
  } finally {
    await first.stop()
  }
  const second = await startCli(['--port', '0', '--personas', '2', '--seed', '8', '--state-file', stateFile])
  try {
    const note =
      `${stateFile} holds a world of seed 3 with 2 personas per team, served instead of the configured --seed 8; ` +
      'POST /__mock/reset starts over with seed 8 and 2 personas per team'
    const output = second.output()
    expect(output).toContain(`\n  NOTE: ${note}\n`)
    expect(output, 'the log says it before the banner').toContain(`agent-console-mock: ${note}\n`)
    expect(output).toMatch(/seed {8}3, 2 personas per team, state kept in/)
  } finally {
    await second.stop()
  }
})
