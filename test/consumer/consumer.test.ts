/**
 * A frontend team's project, built from the packed tarball (issues #16 and #23): it installs beside the app's own
 * msw with no flag and no peer warning; ordinary app code compiles with `tsc --strict` against the exported wire
 * types, under the bundler and the Node resolution, with `skipLibCheck` off (so on too), and so does every entry with
 * its optional peers; the compiled code, and the README's Node example as written, run against the installed
 * mock; the standalone server works without the optional swagger-ui-dist; in Chromium, typed overrides run in a
 * Vite build, the README's Playwright example (both tests) with the app's Playwright, the README's Vite plugin on
 * Vite's dev server with no source map warning, and a story of the docs' Storybook set-up in a static build with
 * no msw warning; and the README's guarded browser start leaves nothing of the mock in a production build. One tarball and one installed app serve every check; installs come from npm's cache when they can (the repository uses the same packages).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { appEnv, binOf, packAndInstall, run } from './support/app.js'
import { runBrowserApp, writeBrowserApp } from './support/browser-app.js'
import { errorsOutsideStorybook, undeclaredImports, writeEntriesCheck } from './support/entries.js'
import { runReadmePlaywright } from './support/playwright-app.js'
import { readmeExample } from './support/readme.js'
import { buildGuardedApp, mockTraces, runPluginApp, writeReadmeApps } from './support/readme-apps.js'
import { buildStorybookApp, runArrangedStory } from './support/storybook-app.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-consumer-'))
/**
 * Each step's bound: an install, a tsc over every declaration file, or Vite's first load in Chromium takes
 * seconds on a quiet machine and minutes on a busy one; a bound only stops a step that hangs.
 */
const STEP = 600_000
const project = join(folder, 'app')
afterAll(() => rmSync(folder, { recursive: true, force: true }), 120_000)

/** The app's own code: what a team writes against the API's types, with no zod and no cast to `any`. */
const APP = `
import type {
  BulkAddValues,
  BulkAddValuesResponse,
  DemographicValue,
  HTTPError,
  HTTPValidationError,
  ListPersonasParams,
  OperationOverride,
  Persona,
  PersonaListResponse,
  PolicyRule,
  PolicyRuleListResponse,
  ValidationError,
} from 'agent-console-mock'
import type { Persona as BrowserPersona } from 'agent-console-mock/browser'

export type Api = { base: string; token: string }

async function get<T>(api: Api, path: string): Promise<T> {
  const res = await fetch(api.base + path, { headers: { authorization: 'Bearer ' + api.token } })
  if (!res.ok) throw new Error(describe(await res.json()))
  return (await res.json()) as T
}

export async function listPersonas(api: Api, params: ListPersonasParams): Promise<PersonaListResponse> {
  const query = new URLSearchParams()
  if (params.team_id) query.set('team_id', params.team_id)
  for (const intent of params.intents ?? []) query.append('intents', intent)
  if (params.limit !== undefined) query.set('limit', String(params.limit))
  return get<PersonaListResponse>(api, '/v1/personas/?' + query)
}

export const adversaries = (page: PersonaListResponse): Persona[] =>
  page.results.filter((p) => p.intent === 'adversarial' || p.intent === 'malicious')

export function label(persona: Persona): string {
  const tags = persona.tags?.join(', ') ?? 'no tags'
  const privilege =
    persona.access_permissions && 'privilege_level' in persona.access_permissions
      ? String(persona.access_permissions.privilege_level)
      : 'default'
  return persona.name + ' (' + persona.role + ', ' + persona.knowledge_level + ', ' + tags + ', ' + privilege + ')'
}

export const nextSortOrder = (values: DemographicValue[]): number =>
  Math.max(0, ...values.map((v) => v.sort_order)) + 1

export async function addValues(api: Api, dimensionId: string, names: string[]): Promise<BulkAddValuesResponse> {
  const body: BulkAddValues = {
    values: names.map((value, i) => ({ value, display_name: value.toUpperCase(), sort_order: i + 1, metadata: { from: 'app' } })),
  }
  const res = await fetch(api.base + '/v1/demographics/' + dimensionId + '/values/bulk', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + api.token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(describe(await res.json()))
  return (await res.json()) as BulkAddValuesResponse
}

export const rulesBySeverity = (page: PolicyRuleListResponse): Record<string, PolicyRule[]> => {
  const groups: Record<string, PolicyRule[]> = {}
  for (const rule of page.results) (groups[rule.consequence.severity] ??= []).push(rule)
  return groups
}

export function isValidationError(body: unknown): body is HTTPValidationError {
  return typeof body === 'object' && body !== null && Array.isArray((body as { detail?: unknown }).detail)
}

/** One line for any error body the API sends: a 422's entries, or another refusal's sentence. */
export function describe(body: HTTPValidationError | HTTPError | unknown): string {
  if (isValidationError(body)) return body.detail.map((e: ValidationError) => e.loc.join('.') + ': ' + e.msg).join('; ')
  if (typeof body === 'object' && body !== null && typeof (body as HTTPError).detail === 'string') return (body as HTTPError).detail
  return 'unexpected answer'
}

/** A 422 as the app's tests arrange it: the fields FastAPI declares, no pydantic 'input' (pydantic 1 sends none). */
export const limitTooLow: HTTPValidationError = {
  detail: [{ loc: ['query', 'limit'], msg: 'ensure this value is greater than 0', type: 'value_error' }],
}
export const refuseLimit: OperationOverride<'list_personas'> = { status: 422, body: limitTooLow }

export function fieldErrors(error: HTTPValidationError): Map<string, string> {
  return new Map(error.detail.map((e) => [String(e.loc[e.loc.length - 1]), e.msg]))
}

export const samePersona = (persona: Persona): BrowserPersona => persona

/** Typed overrides a team keeps beside its tests: checked against the operation's schemas. */
export const emptyPage: OperationOverride<'list_personas'> = { status: 200, body: { results: [], total: 0 } }
export const pageOfLimit: OperationOverride<'list_personas'> = (req) => ({ body: { results: [], total: req.query.limit } })
export const noPolicy: OperationOverride<'list_policy_rules'> = { error: 'not_found' }
// @ts-expect-error a page of personas, not a list
export const wrongBody: OperationOverride<'list_personas'> = { status: 200, body: [] }

// The types are precise, not any: each line under a @ts-expect-error must be an error.
export function precise(value: DemographicValue): void {
  // @ts-expect-error sort_order is a number
  const text: string = value.sort_order
  // @ts-expect-error a bulk item needs its value
  const body: BulkAddValues = { values: [{ display_name: 'x' }] }
  // @ts-expect-error intent is one of four words
  const intent: Persona['intent'] = 'friendly'
  console.log(text, body, intent)
}
`

/** Runs the compiled app against the mock installed beside it, as the app's own tests would. */
const RUN = `
import { createMockServer } from 'agent-console-mock/node'
import { addValues, adversaries, describe, label, listPersonas, nextSortOrder, pageOfLimit, refuseLimit, rulesBySeverity } from './out/app.js'

const mock = await createMockServer({ seed: 5, personasPerTeam: 12 })
const { teams, tokens, dimensions, policies } = mock.fixtures
const reader = { base: mock.baseUrl, token: tokens.team_reader }
const admin = { base: mock.baseUrl, token: tokens.super_admin }
const page = await listPersonas(reader, { team_id: teams[0].id, limit: 12 })
const added = await addValues(admin, dimensions[0].id, ['north', 'south'])
const rules = await fetch(mock.url('/v1/policies/' + policies[0].id + '/rules'), { headers: { authorization: 'Bearer ' + tokens.team_reader } })
const invalid = await fetch(mock.url('/v1/personas/?team_id=' + teams[0].id + '&limit=0'), { headers: { authorization: 'Bearer ' + tokens.team_reader } })
mock.override('list_personas', pageOfLimit)
const overridden = await listPersonas(reader, { limit: 7 })
mock.override('list_personas', refuseLimit)
const refused = await fetch(mock.url('/v1/personas/'), { headers: { authorization: 'Bearer ' + tokens.team_reader } })
mock.resetHandlers()
console.log(JSON.stringify({
  total: page.total,
  adversaries: adversaries(page).length <= page.results.length,
  label: typeof label(page.results[0]),
  next: nextSortOrder(added),
  severities: Object.keys(rulesBySeverity(await rules.json())).length > 0,
  error: describe(await invalid.json()),
  overridden: overridden.total,
  refused: [refused.status, describe(await refused.json())],
}))
mock.close()
`

/** The standalone server without swagger-ui-dist: /docs says what to install, /openapi.json answers. */
const DOCS = `
import { createMockApp } from 'agent-console-mock/server'
const { app } = await createMockApp({ logger: { info() {}, error: console.error } })
const server = app.listen(0, '127.0.0.1')
await new Promise((resolve) => server.once('listening', resolve))
const base = 'http://127.0.0.1:' + server.address().port
const docs = await fetch(base + '/docs')
const openapi = await fetch(base + '/openapi.json')
console.log(JSON.stringify({ docs: docs.status, text: await docs.text(), openapi: openapi.status, title: (await openapi.json()).info.title }))
server.close()
`

let npmOutput = ''
beforeAll(() => {
  npmOutput = packAndInstall(folder, project)
  writeFileSync(join(project, 'src/app.ts'), APP)
  writeFileSync(join(project, 'run.mjs'), RUN)
  writeFileSync(join(project, 'docs.mjs'), DOCS)
  writeBrowserApp(project)
  writeReadmeApps(project)
}, STEP)

it('installs beside its own msw with no flag, and npm warns of no peer of the package', () => {
  expect(npmOutput).not.toContain('ERESOLVE')
  const peerWarnings = npmOutput
    .split('\n')
    .filter((line) => /\bpeer\b/i.test(line) && line.includes('agent-console-mock'))
  expect(peerWarnings).toEqual([])
})

it('imports its Node entry for an app that asks for another export condition', () => {
  // A condition the package does not publish falls through to the built file (a `source` condition once named .ts).
  const script =
    "const { createMockServer } = await import('agent-console-mock/node'); console.log(typeof createMockServer)"
  const output = run(process.execPath, ['--conditions=source', '--input-type=module', '-e', script], project)
  expect(output.trim()).toBe('function')
})

/** A frontend's tsconfig: strict, DOM, no Node types, skipLibCheck off. */
function compile(resolution: 'bundler' | 'nodenext', emit: boolean) {
  const module = resolution === 'bundler' ? 'ESNext' : 'NodeNext'
  const config = `tsconfig.${resolution}.json`
  writeFileSync(
    join(project, config),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module,
        moduleResolution: resolution,
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        noEmit: !emit,
        outDir: 'out',
        rootDir: 'src',
      },
      include: ['src'],
    }),
  )
  return run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', config], project)
}

// With skipLibCheck off: tsc then checks the package's declarations too, so what compiles so compiles with it on.
// The Node resolution's compile is the one the app runs from (below).
it(
  'compiles the app with tsc --strict (moduleResolution bundler, skipLibCheck false)',
  () => {
    expect(compile('bundler', false)).toBe('')
  },
  STEP,
)

/** tsc's report (it exits 2 when it found errors: the report is what the test reads). */
function typeErrors(config: string): string {
  const tsc = join(project, 'node_modules/typescript/bin/tsc')
  try {
    return execFileSync(process.execPath, [tsc, '-p', config], { cwd: project, encoding: 'utf8', env: appEnv() })
  } catch (error) {
    return (error as { stdout: string }).stdout
  }
}

it(
  'type-checks every entry with skipLibCheck off, beside the optional peers the entries name',
  () => {
    expect(errorsOutsideStorybook(typeErrors(writeEntriesCheck(project)))).toEqual([])
  },
  STEP,
)

it('imports in its declarations only the packages it declares: Storybook, no peer, is not among them', () => {
  // dist/kits/storybook/index.d.ts imported storybook/internal/csf: without Storybook, tsc said TS2307.
  expect(undeclaredImports(project)).toEqual([])
})

it(
  'compiles the app with tsc --strict (moduleResolution nodenext, skipLibCheck false), and runs it against the installed mock',
  () => {
    expect(compile('nodenext', true)).toBe('')
    const answer = JSON.parse(run(process.execPath, ['run.mjs'], project))
    expect(answer).toEqual({
      total: 12,
      adversaries: true,
      label: 'string',
      next: 3,
      severities: true,
      error: 'query.limit: Input should be greater than or equal to 1',
      overridden: 7,
      refused: [422, 'query.limit: ensure this value is greater than 0'],
    })
  },
  STEP,
)

it('serves /openapi.json without swagger-ui-dist, and a /docs page that says to install it', () => {
  const answer = JSON.parse(run(process.execPath, ['docs.mjs'], project))
  expect(answer).toMatchObject({ docs: 200, openapi: 200, title: 'Agent Management Console API' })
  expect(answer.text).toContain('Install swagger-ui-dist to get the interactive docs')
}, 120_000)

it(
  'runs typed overrides in the browser: the app built with Vite from the tarball, in Chromium',
  async () => {
    const answer = await runBrowserApp(project)
    expect(answer).toEqual({
      seeded: { status: 200, total: 9 },
      overridden: { status: 200, body: '{"results":[],"total":4}' },
      error: { status: 404, body: '{"detail":"Policy not found"}' },
      reset: { status: 200, total: 9 },
    })
  },
  STEP,
)

it("runs the README's Node example, as written, with the app's Vitest", () => {
  mkdirSync(join(project, 'node-test'))
  writeFileSync(join(project, 'node-test/readme.test.ts'), readmeExample('### Node test'))
  const output = run(process.execPath, [binOf(project, 'vitest'), 'run', '--root', 'node-test'], project)
  expect(output.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+1 passed \(1\)/)
}, 120_000)

it(
  "runs the README's Playwright example, as written, with the app's Playwright in Chromium",
  async () => {
    const { status, report } = await runReadmePlaywright(project)
    expect(report).toMatch(/2 passed/)
    expect(status, report).toBe(0)
  },
  STEP,
)

it(
  "serves the README's Vite plugin config to Chromium, with no source map warning from Vite",
  async () => {
    const { answer, output } = await runPluginApp(project)
    expect(answer).toEqual({ seed: 1, total: 200 })
    // The package's maps embed their sources: Vite finds no source file missing.
    expect(output).not.toMatch(/Sourcemap for .* points to missing source files/)
  },
  STEP,
)

it("builds the README's guarded browser start for production with nothing of the mock in it", () => {
  const files = buildGuardedApp(project)
  expect([...files.keys()].sort(), 'no chunk of the mock, no mockServiceWorker.js').toEqual([
    expect.stringMatching(/^assets\/index-[\w-]+\.js$/),
    'index.html',
  ])
  expect(mockTraces(files)).toEqual([])
  expect([...files.values()].join(), "the app's own code is there").toContain('the app rendered')
}, 120_000)

it(
  "answers a story of the docs' Storybook set-up, as written, from the story's world in Chromium, with no msw warning",
  async () => {
    buildStorybookApp(project)
    const { answer, logged } = await runArrangedStory(project)
    // The story's seed and factories over the preview's 30 personas a team; the other backend's request passed on.
    expect(answer).toEqual({ seed: 7, total: 31, ada: true, passedOn: 'answered' })
    expect(logged.filter((line) => line.includes('[MSW]'))).toEqual([])
  },
  STEP,
)
