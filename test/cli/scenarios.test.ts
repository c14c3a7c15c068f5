/**
 * Scenarios at start, through the built CLI: `--scenario` (built in, unknown) and `--config`
 * files in JavaScript and TypeScript defining scenarios of their own with `defineScenario`,
 * imported from the package as a project would (a config folder with the package in its
 * node_modules).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import nodeModule from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { runCli, startCli, type CliServer } from '../reliability/support/cli.js'

/** Each test starts the CLI once or twice, each start with a 20 s hang guard of its own. */
const CLI_TEST_TIMEOUT_MS = 60_000

const project = mkdtempSync(join(tmpdir(), 'acm-cli-scenarios-'))
mkdirSync(join(project, 'node_modules'))
symlinkSync(resolve(import.meta.dirname, '../..'), join(project, 'node_modules', 'agent-console-mock'), 'dir')
afterAll(() => rmSync(project, { recursive: true, force: true }))

interface Fixtures {
  teams: Array<{ id: string }>
  tokens: Record<string, string>
}

const get = async <T>(server: CliServer, path: string, headers: Record<string, string> = {}): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, { headers })
  expect(response.status, `GET ${path}`).toBe(200)
  return (await response.json()) as T
}

/** The personas the team reader's token lists (its team is the first one), under a session if given. */
async function teamPersonas(server: CliServer, session?: string) {
  const headers: Record<string, string> = session ? { 'x-mock-session': session } : {}
  const { tokens } = await get<Fixtures>(server, '/__mock/fixtures', headers)
  return get<{ total: number; results: Array<{ name: string; is_preset: boolean }> }>(server, '/v1/personas/', {
    ...headers,
    authorization: `Bearer ${tokens.team_reader}`,
  })
}

const ONE_PRESET = `
  defineScenario({
    name: 'one-preset',
    description: 'the first team holds a single persona, a preset',
    async apply({ world, fixtures, records, create }) {
      const team = fixtures.teams[0].id
      for (const persona of world.personas.findMany((q) => q.where({ team_id: team })))
        await records.delete('personas', persona.id)
      await create.persona({ team_id: team, name: 'Only Preset', is_preset: true })
    },
  })`

it(
  '--scenario empty-team: the default world, a new session and a reset start with an empty team',
  async () => {
    const server = await startCli(['--port', '0', '--quiet', '--scenario', 'empty-team'])
    try {
      expect((await teamPersonas(server)).total).toBe(0)
      expect((await teamPersonas(server, 'fresh-session')).total).toBe(0)
      expect(await get(server, '/__mock/scenario', { 'x-mock-session': 'fresh-session' })).toEqual({
        scenarios: ['empty-team'],
      })
      expect((await fetch(`${server.url}/__mock/reset`, { method: 'POST' })).status).toBe(200)
      expect((await teamPersonas(server)).total).toBe(0)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'an unknown --scenario fails at start, listing the known ones, with exit code 1',
  async () => {
    const { code, output } = await runCli(['--port', '0', '--scenario', 'empty-team', 'no-such-scenario'])
    expect(code).toBe(1)
    expect(output).toContain('Unknown scenario "no-such-scenario"; known: empty-team, huge-team, policy-1000-rules')
    expect(output).not.toContain('listening on')
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  '--config with a .mjs file: its scenario is listed and selectable with --scenario',
  async () => {
    const config = join(project, 'mock.config.mjs')
    writeFileSync(
      config,
      `import { defineScenario } from 'agent-console-mock'\n\nexport const scenarios = [${ONE_PRESET},\n]\n`,
    )
    const server = await startCli(['--port', '0', '--quiet', '--config', config, '--scenario', 'one-preset'])
    try {
      const { scenarios } = await get<{ scenarios: Array<{ name: string; description: string }> }>(
        server,
        '/__mock/scenarios',
      )
      expect(scenarios.at(-1)).toEqual({
        name: 'one-preset',
        description: 'the first team holds a single persona, a preset',
      })
      expect(scenarios.map((scenario) => scenario.name)).toContain('empty-team')
      const personas = await teamPersonas(server)
      expect(personas.total).toBe(1)
      expect(personas.results[0]).toMatchObject({ name: 'Only Preset', is_preset: true })
    } finally {
      expect(await server.stop()).toBe(0)
    }
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  '--config with a .ts file (types stripped, not checked): its scenario is listed and selectable per session',
  async () => {
    const config = join(project, 'mock.config.ts')
    writeFileSync(
      config,
      [
        "import { defineScenario, type Scenario, type ScenarioContext } from 'agent-console-mock'",
        '',
        'const teamOf = (context: ScenarioContext): string => context.fixtures.teams[0]!.id',
        '',
        `export const scenarios: Scenario[] = [${ONE_PRESET.replace('fixtures.teams[0].id', 'teamOf({ fixtures } as ScenarioContext)')},`,
        '  defineScenario({',
        "    name: 'ts-only',",
        "    description: 'written in TypeScript',",
        '    apply: ({ profile }: ScenarioContext) => profile({}),',
        '  }) satisfies Scenario,',
        ']',
        '',
      ].join('\n'),
    )
    const server = await startCli(['--port', '0', '--quiet', '--config', config])
    try {
      const { scenarios } = await get<{ scenarios: Array<{ name: string }> }>(server, '/__mock/scenarios')
      expect(scenarios.slice(-2).map((scenario) => scenario.name)).toEqual(['one-preset', 'ts-only'])
      // Without --scenario the world is the plain seeded one; a session selects the custom scenario.
      expect((await teamPersonas(server)).total).toBeGreaterThan(1)
      const selected = await fetch(`${server.url}/__mock/scenario`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-mock-session': 'ts' },
        body: JSON.stringify({ scenarios: ['one-preset', 'ts-only'] }),
      })
      expect(await selected.json()).toEqual({ scenarios: ['one-preset', 'ts-only'] })
      expect((await teamPersonas(server, 'ts')).results.map((persona) => persona.name)).toEqual(['Only Preset'])
      // The compiled copy the CLI imported is gone.
      expect(readdirSync(project).filter((name) => name.endsWith('.mjs') && name.startsWith('.'))).toEqual([])
    } finally {
      expect(await server.stop()).toBe(0)
    }
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  '--config .ts beside typescript 7 (no JavaScript API): Node strips the types, or the start says what to install',
  async () => {
    // typescript 7's package is a native compiler that exports its version and nothing to compile with.
    const app = mkdtempSync(join(tmpdir(), 'acm-cli-ts7-'))
    try {
      mkdirSync(join(app, 'node_modules', 'typescript'), { recursive: true })
      symlinkSync(resolve(import.meta.dirname, '../..'), join(app, 'node_modules', 'agent-console-mock'), 'dir')
      writeFileSync(
        join(app, 'node_modules', 'typescript', 'package.json'),
        JSON.stringify({ name: 'typescript', version: '7.0.2', main: 'index.js' }),
      )
      writeFileSync(join(app, 'node_modules', 'typescript', 'index.js'), "module.exports = { version: '7.0.2' }\n")
      const config = join(app, 'mock.config.ts')
      writeFileSync(
        config,
        `import { defineScenario, type Scenario } from 'agent-console-mock'\nexport const scenarios: Scenario[] = [${ONE_PRESET}]\n`,
      )
      if (typeof (nodeModule as { stripTypeScriptTypes?: unknown }).stripTypeScriptTypes === 'function') {
        const server = await startCli(['--port', '0', '--quiet', '--config', config])
        try {
          const { scenarios } = await get<{ scenarios: Array<{ name: string }> }>(server, '/__mock/scenarios')
          expect(scenarios.map((scenario) => scenario.name)).toContain('one-preset')
        } finally {
          expect(await server.stop()).toBe(0)
        }
        writeFileSync(config, "export const scenarios = [\n  { name: 'x', oops oops: string },\n]\n")
        const refused = await runCli(['--port', '0', '--config', config])
        expect(refused.code).toBe(1)
        expect(refused.output, 'the line and column, as tsc names them').toContain(`${config}:2:21: `)
      } else {
        const refused = await runCli(['--port', '0', '--config', config])
        expect(refused.code).toBe(1)
        expect(refused.output).toContain('the typescript package found (7.0.2) has no JavaScript API')
        // typescript 5 would take the place of the project's 7: the start does not ask for it.
        expect(refused.output).not.toContain('typescript@5')
        expect(refused.output).toContain('use Node 22.13 or later, or write the config as .mjs')
      }
    } finally {
      rmSync(app, { recursive: true, force: true })
    }
  },
  CLI_TEST_TIMEOUT_MS,
)

it(
  'a config file it cannot use fails at start, naming the file and what is wrong, with exit code 1',
  async () => {
    const syntax = join(project, 'broken.config.ts')
    writeFileSync(syntax, 'export const scenarios = [\n  { name: "x", apply() { const a: number = ; } },\n]\n')
    const broken = await runCli(['--port', '0', '--config', syntax])
    expect(broken.code).toBe(1)
    expect(broken.output).toContain(`${syntax}:2:44: Expression expected.`)
    // JavaScript is imported as it is, and import() says what is wrong but not where: the place is node --check's.
    const jsSyntax = join(project, 'broken.config.mjs')
    writeFileSync(jsSyntax, 'export const scenarios = [\n  { name: "x" ]\n')
    const brokenJs = await runCli(['--port', '0', '--config', jsSyntax])
    expect(brokenJs.code).toBe(1)
    expect(brokenJs.output).toContain(`cannot load ${jsSyntax}:2:15: Unexpected token ']'`)

    const empty = join(project, 'empty.config.mjs')
    writeFileSync(empty, 'export const nothing = 1\n')
    const none = await runCli(['--port', '0', '--config', empty])
    expect(none.code).toBe(1)
    expect(none.output).toContain(`${empty} exports no scenarios`)

    const badName = join(project, 'bad-name.config.mjs')
    writeFileSync(badName, 'export default { scenarios: [{ name: "two words", description: "", apply() {} }] }\n')
    const refused = await runCli(['--port', '0', '--config', badName])
    expect(refused.code).toBe(1)
    expect(refused.output).toContain(`${badName}: Invalid scenario name "two words"`)
  },
  CLI_TEST_TIMEOUT_MS,
)
