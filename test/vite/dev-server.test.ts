import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inspect } from 'node:util'
import { createLogger, createServer, type ViteDevServer } from 'vite'
import { afterAll, afterEach, expect, it } from 'vitest'
import { agentConsoleMock, type MockPluginOptions } from 'agent-console-mock/vite'
import { startTestServer } from '../support/server.js'

const fixture = fileURLToPath(new URL('./fixture', import.meta.url))
const servers: Array<{ close(): Promise<void> }> = []
// Vite's dependency cache of its own, not the project's node_modules/.vite (the demo's).
const cacheDir = mkdtempSync(join(tmpdir(), 'agent-console-mock-vite-dev-'))
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))
afterEach(async () => {
  for (const server of servers.splice(0).reverse()) await server.close()
})

/** What the dev servers warned of. */
const warnings: string[] = []
const logger = { ...createLogger('silent'), warn: (message: string) => void warnings.push(message) }

/** A dev server of the fixture app with the plugin, listening on a free loopback port. */
async function devServer(options: MockPluginOptions, base = '/'): Promise<{ vite: ViteDevServer; url: string }> {
  const vite = await createServer({
    root: fixture,
    base,
    configFile: false,
    cacheDir,
    customLogger: logger,
    server: { host: '127.0.0.1', port: 0, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true },
    plugins: [agentConsoleMock(options)],
  })
  servers.push(vite)
  await vite.listen()
  const url = vite.resolvedUrls?.local[0]
  if (!url) throw new Error('the dev server has no local URL')
  return { vite, url: new URL(url).origin }
}

/** The page, its inline loader (Vite serves inline module scripts as html-proxy modules) and the start module. */
async function pageModules(url: string, base = '/') {
  const page = await text(url + base)
  const proxied = /<script type="module" src="([^"]+html-proxy[^"]+)"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&')
  const loader = proxied ? await text(url + proxied) : undefined
  const startUrl = /await import\("([^"]*virtual:agent-console-mock\/start)"\)/.exec(loader?.body ?? '')?.[1]
  const start = startUrl ? await text(url + startUrl) : undefined
  return { page: page.body, loader: loader?.body, start: start?.body }
}

const text = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init)
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() }
}

it('serves the worker script of the msw the mock runs on, byte for byte', async () => {
  const { url } = await devServer({})
  const response = await fetch(`${url}/mockServiceWorker.js`)
  const script = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'))
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
  expect(Buffer.from(await response.arrayBuffer()).equals(script), 'the same bytes as msw/mockServiceWorker.js').toBe(
    true,
  )
})

it('serves the worker script under the base, and tells the page where', async () => {
  const { url } = await devServer({}, '/app/')
  expect((await text(`${url}/app/mockServiceWorker.js`)).status).toBe(200)
  const { start } = await pageModules(url, '/app/')
  expect(start).toContain('serviceWorkerUrl: "/app/mockServiceWorker.js"')
})

it("runs the app's module scripts only after the start module, which starts the worker with the options", async () => {
  const { url } = await devServer({ seed: 7, personasPerTeam: 12, profile: { missingCredentialsStatus: 403 } })
  const { page, loader, start } = await pageModules(url)
  expect(page, 'the app script is no longer loaded on its own').not.toContain('src="/main.js"')
  expect(loader).toMatch(
    /await import\("\/@id\/__x00__virtual:agent-console-mock\/start"\)\s*await import\("\/main\.js"\)/,
  )
  expect(start).toContain('startMockWorker')
  expect(start).toContain('{"seed":7,"personasPerTeam":12,"profile":{"missingCredentialsStatus":403}}')
  expect(start, 'the page query is read').toContain(`get('scenario')`)
})

it('holds back inline module scripts, keeps the doctype first, and warns of static imports it cannot hold', async () => {
  const { url } = await devServer({})
  const bare = await text(`${url}/bare.html`)
  expect(bare.body, 'the doctype stays first: no quirks mode').toMatch(/^<!doctype html>/)
  const proxied = /<script type="module" src="([^"]+html-proxy[^"]+)"/.exec(bare.body)?.[1]?.replaceAll('&amp;', '&')
  const inline = await text(url + proxied)
  expect(inline.body, 'the inline module awaits the start first').toMatch(
    /^await import\("\/@id\/__x00__virtual:agent-console-mock\/start"\)\s*document\.getElementById/,
  )
  const classic = await text(`${url}/classic.html`)
  expect(classic.body, 'a page without module scripts starts the mock after <html>, before <body>').toMatch(
    /^<!doctype html>\s*<html lang="en">[\s\S]*src="\/classic\.html\?html-proxy[^"]*"><\/script><body>/,
  )
  warnings.length = 0
  const unheld = await text(`${url}/static-import.html`)
  expect(unheld.body).not.toContain('agent-console-mock')
  expect(warnings.join('\n')).toContain(
    'agent-console-mock: /static-import.html has 1 inline module script(s) with static imports, which run before the mock starts',
  )
})

it('reads the page as a browser does: comments, templates, case, data blocks and re-exports', async () => {
  const { url } = await devServer({})
  const loaderOf = async (page: string) => {
    const proxied = [...page.matchAll(/<script type="module" src="([^"]+html-proxy[^"]+)"/g)].map(([, src]) =>
      src!.replaceAll('&amp;', '&'),
    )
    return Promise.all(proxied.map(async (src) => (await text(url + src)).body))
  }
  const commented = (await text(`${url}/commented.html`)).body
  expect(commented, 'a script in a comment or a template is none').toContain(
    '<!-- <script type="module" src="/old.js"></script> -->',
  )
  expect(commented).toContain('<template><script type="module" src="/template.js"></script></template>')
  expect(commented, "an SVG script runs no module: it stays, and is not the loader's place").toContain(
    '<svg><title>icon</title><script type="module" src="/svg.js"></script></svg>',
  )
  expect(await loaderOf(commented)).toEqual([
    expect.stringMatching(/start"\)\s*await import\("\/main\.js"\)\s*(\/\/#.*)?$/),
  ])
  const mention = (await text(`${url}/mention.html`)).body
  expect(mention, 'an upper-case module script is held').not.toContain('SRC="/main.js"')
  expect(mention, 'a data block is no module').toContain('<script data-type="module" type="text/plain">data</script>')
  expect(await loaderOf(mention)).toEqual([expect.stringMatching(/await import\("\/main\.js"\)/)])
  warnings.length = 0
  const reexport = await loaderOf((await text(`${url}/reexport.html`)).body)
  expect(reexport[0], 'a re-export runs first: left, and warned of').not.toContain('agent-console-mock')
  expect(reexport[1], 'an import in a comment is none: held').toMatch(/^await import\(.*start"\)\n\/\*/)
  expect(warnings.join('\n')).toContain('/reexport.html has 1 inline module script(s) with static imports')
})

it("reads a document's file from Vite's root as the dev server starts, and writes it into the start module", async () => {
  const { url } = await devServer({ openapi: '../../openapi/openapi-3.0.json' })
  const { start } = await pageModules(url)
  const document = JSON.parse(readFileSync(new URL('../openapi/openapi-3.0.json', import.meta.url), 'utf8'))
  expect(start).toContain(`"openapi":${JSON.stringify(document)}`)
})

it('stops the start when the document cannot be read, saying which, why and where a relative path is read from', async () => {
  await expect(devServer({ openapi: 'missing.json' })).rejects.toThrow(
    `agent-console-mock/vite: cannot read the OpenAPI document ${join(fixture, 'missing.json')}: ENOENT`,
  )
  await expect(devServer({ openapi: 'missing.json' })).rejects.toThrow(
    `(openapi's relative path "missing.json" is read from Vite's root, ${fixture}).`,
  )
  await expect(devServer({ openapi: 'index.html' })).rejects.toThrow(
    /^agent-console-mock\/vite: the OpenAPI document .*index\.html is not JSON .*give its \/openapi\.json/,
  )
})

/** The error a dev server with these options fails to start with. */
const refusal = (options: Record<string, unknown>): Promise<Error> =>
  devServer(options as MockPluginOptions).then(
    () => {
      throw new Error(`${JSON.stringify(options)} started`)
    },
    (error: Error) => error,
  )

it('says each refusal as one sentence with no stack, as Vite prints the error that stops its start', async () => {
  for (const options of [
    { personasPerTeam: -4 },
    { sed: 1 },
    { mockServer: 'localhost:4010' },
    { openapi: './nope.json' },
  ]) {
    const error = await refusal(options)
    expect(error.message, JSON.stringify(options)).toMatch(/^agent-console-mock\/vite: [^\n]+\.$/)
    // Vite 5 and 6 print error.stack; later ones util.inspect(error), which adds the cause's stack too.
    expect(error.stack, JSON.stringify(options)).toBe(error.message)
    expect(inspect(error), JSON.stringify(options)).toBe(error.message)
  }
})

it('stops the start on an option the page would refuse, naming it, where the page would never load', async () => {
  const refusals: Array<[Record<string, unknown>, string | RegExp]> = [
    [{ personasPerTeam: -4 }, 'agent-console-mock/vite: personasPerTeam must be an integer from 0 to 100000, got -4.'],
    [{ seed: 1.5 }, 'agent-console-mock/vite: The seed must be an integer, got 1.5.'],
    [{ scenario: 'empty-team,nope' }, /^agent-console-mock\/vite: Unknown scenario "nope"; known: .*empty-team/],
    [{ personas: 5 }, /^agent-console-mock\/vite: unknown option "personas"; the options are seed, personasPerTeam, /],
    [
      { scenarios: [] },
      /^agent-console-mock\/vite: scenarios of your own are code, .*startMockWorker\(\{ scenarios \}\)/,
    ],
    [
      { profile: { missingCredentialsStatus: 418 } },
      /^agent-console-mock\/vite: Invalid mock profile\. missingCredentialsStatus/,
    ],
    [{ delayMs: -1 }, 'agent-console-mock/vite: delayMs must be a number of milliseconds, 0 or more, got -1.'],
    [
      { mockServer: 'localhost:4010' },
      /^agent-console-mock\/vite: mockServer must be the standalone server's http\(s\) URL/,
    ],
    [{ delayMs: '5' }, 'agent-console-mock/vite: delayMs must be a number of milliseconds, 0 or more, got "5".'],
    // An empty secret passed the start, and the page never loaded (HS256 takes no empty key).
    [{ jwtSecret: '' }, 'agent-console-mock/vite: jwtSecret must be a non-empty string, the HS256 secret'],
    [{ quiet: 'no' }, 'agent-console-mock/vite: quiet must be true or false, got "no".'],
    // The page reads a string as the localStorage key, and the empty one as "don't persist".
    [{ persist: '' }, /^agent-console-mock\/vite: persist must be true, false or the localStorage key .*, got ""\.$/],
    [{ persist: 1 }, /^agent-console-mock\/vite: persist must be true, false or the localStorage key .*, got 1\.$/],
  ]
  for (const [options, message] of refusals)
    await expect(devServer(options as MockPluginOptions), JSON.stringify(options)).rejects.toThrow(message)
  const started = await devServer({ seed: 4, personasPerTeam: 0, scenario: ['empty-team'], delayMs: 0, persist: 'yes' })
  expect((await pageModules(started.url)).start).toContain('"scenario":["empty-team"]')
  expect((await pageModules(started.url)).start, 'a string is the key to keep the world under').toContain(
    '"persist":"yes"',
  )
})

it("stops the start on an option of the page's worker given with mockServer, naming the server's flag instead", async () => {
  // Nothing listens on the port: the check comes before any request.
  const mockServer = 'http://127.0.0.1:4612'
  await expect(devServer({ mockServer, seed: 3 })).rejects.toThrow(
    /^agent-console-mock\/vite: seed has no effect with mockServer, .*\(seed: --seed\), or leave mockServer out/,
  )
  const every = {
    personasPerTeam: 5,
    profile: {},
    jwtSecret: 'secret',
    scenario: 'empty-team',
    openapi: {},
    delayMs: 1,
    persist: true,
    quiet: false,
  }
  await expect(devServer({ mockServer, ...every })).rejects.toThrow(
    'agent-console-mock/vite: personasPerTeam, profile, jwtSecret, scenario, openapi, delayMs, persist, quiet have no effect with mockServer',
  )
})

it('proxies /v1 and /__mock to a standalone server and starts no worker', async () => {
  const server = await startTestServer({ seed: 3 })
  servers.push(server)
  const { url } = await devServer({ mockServer: server.url })
  const page = await text(`${url}/`)
  expect(page.body).toContain('src="/main.js"')
  expect(page.body).not.toContain('agent-console-mock')
  const fixtures = JSON.parse((await text(`${url}/__mock/fixtures`)).body)
  expect(fixtures.seed).toBe(3)
  const init = { headers: { authorization: `Bearer ${fixtures.tokens.team_reader}` } }
  const [viaVite, direct] = await Promise.all([
    text(`${url}/v1/personas/?limit=3`, init),
    text(`${server.url}/v1/personas/?limit=3`, init),
  ])
  expect(viaVite.status).toBe(200)
  expect(viaVite.type).toBe('application/json')
  expect(viaVite.body, "the standalone server's answer, as it is").toBe(direct.body)
  const redirect = await fetch(`${url}/v1/personas?limit=3`, { ...init, redirect: 'manual' })
  expect([redirect.status, redirect.headers.get('location')], 'a redirect stays on the dev server').toEqual([
    307,
    `${url}/v1/personas/?limit=3`,
  ])
})
