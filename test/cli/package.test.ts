import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const folder = mkdtempSync(join(tmpdir(), 'acm-pack-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }), 120_000)

/** The linters of published packages, pinned (run through npm exec, as Biome and knip are). */
const PUBLINT = 'publint@0.3.25'
const ATTW = '@arethetypeswrong/cli@0.18.5'

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args.slice(0, 1), '--no-audit', '--no-fund', '--loglevel=error', ...args.slice(1)], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  })
/** A pinned tool through npm exec (npm's own options before `--`, the tool's after). */
const tool = (name: string, args: string[]) => npm(['exec', '--yes', '--', name, ...args], folder)

let tarball: string
let packed: string[]
beforeAll(() => {
  const [report] = JSON.parse(npm(['pack', '--json', '--pack-destination', folder], root)) as Array<{
    filename: string
    files: Array<{ path: string }>
  }>
  tarball = join(folder, report!.filename)
  packed = report!.files.map((file) => file.path)
}, 240_000)

it('packs the built package, its licence, readme, changelog and docs, and nothing else', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  expect(packed).toEqual(expect.arrayContaining(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']))
  const stray = packed.filter(
    (path) => !/^dist\/.+\.(js|d\.ts|js\.map)$/.test(path) && !/^docs\/[\w-]+\.md$/.test(path),
  )
  expect(stray.sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'])
  // A reader of the installed package (or of its page on a registry) can follow every link of the README.
  const readmeLinks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/\]\(([^)#:\s]+)(?:#[^)]*)?\)/g)]
  expect(readmeLinks.length).toBeGreaterThan(0)
  for (const [, target] of readmeLinks) expect(packed, `README links to ${target}`).toContain(target)
  expect(packed.filter((path) => /\/test\/|tsbuildinfo|\.stamp$/.test(path))).toEqual([])
  // Every file the exports map (under any condition) and the bin name is in the tarball.
  const targets = [manifest.bin['agent-console-mock']]
  for (const entry of Object.values(manifest.exports) as Array<string | Record<string, string | null>>) {
    if (typeof entry === 'string') targets.push(entry)
    else for (const path of Object.values(entry)) if (path) targets.push(path)
  }
  for (const target of targets) expect(packed, target).toContain(target.replace(/^\.\//, ''))
  expect(manifest.dependencies, 'swagger-ui-dist is an optional peer').not.toHaveProperty('swagger-ui-dist')
  expect(manifest.peerDependenciesMeta['swagger-ui-dist']).toEqual({ optional: true })
})

it('is clean for publint and arethetypeswrong (ESM only: node10 and require are not supported)', () => {
  expect(tool(PUBLINT, ['run', '--strict', tarball])).toContain('All good!')
  // attw exits 1 (and execFileSync throws) on a problem outside the resolutions the esm-only profile ignores.
  const report = JSON.parse(tool(ATTW, ['--profile', 'esm-only', '--format', 'json', tarball]))
  const problems = Object.values(report.problems as Record<string, Array<{ resolutionKind: string }>>).flat()
  expect(problems.filter((problem) => !['node10', 'node16-cjs'].includes(problem.resolutionKind))).toEqual([])
}, 240_000)

it('installs from its tarball: the bin runs, agent-console-mock/node imports, and no install script comes along', () => {
  const project = join(folder, 'consumer')
  mkdirSync(project, { recursive: true })
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }),
  )
  npm(['install', tarball], project)

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

  // swagger-ui-dist (and @scarf/scarf's postinstall, which reports installs) only reaches those who install it.
  expect(existsSync(join(project, 'node_modules/swagger-ui-dist'))).toBe(false)
  expect(existsSync(join(project, 'node_modules/@scarf'))).toBe(false)
  const lock = JSON.parse(readFileSync(join(project, 'node_modules/.package-lock.json'), 'utf8'))
  const scripted = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path)
  expect(scripted, 'only msw, the peer the app asked for').toEqual(['node_modules/msw'])
}, 240_000)
