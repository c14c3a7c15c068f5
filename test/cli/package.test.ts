import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const folder = mkdtempSync(join(tmpdir(), 'acm-pack-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  })

it('installs from its tarball: the bin runs and agent-console-mock/node imports', () => {
  npm(['pack', '--pack-destination', folder], root)
  const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'))!
  const project = join(folder, 'consumer')
  execFileSync('mkdir', ['-p', project])
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }),
  )
  npm(['install', join(folder, tarball)], project)

  const help = execFileSync(join(project, 'node_modules/.bin/agent-console-mock'), ['--help'], { encoding: 'utf8' })
  expect(help).toContain('--state-file')

  writeFileSync(
    join(project, 'probe.mjs'),
    `
    import { createMockServer } from 'agent-console-mock/node'
    const mock = await createMockServer({ seed: 4, personasPerTeam: 3 })
    const res = await fetch(mock.url('/v1/personas/'), { headers: { authorization: 'Bearer ' + mock.fixtures.tokens.team_reader } })
    console.log(res.status, (await res.json()).total)
    mock.close()
  `,
  )
  expect(execFileSync(process.execPath, ['probe.mjs'], { cwd: project, encoding: 'utf8' }).trim()).toBe('200 3')
}, 240_000)
