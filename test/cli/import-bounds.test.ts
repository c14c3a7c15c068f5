/**
 * An import ends on a server that would keep it crawling for ever, or leave it short: exit 2, one sentence, no
 * file. The servers here answer every request of the crawl from a rule of their own (test/cli/import*.test.ts
 * import from the mock itself).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, it } from 'vitest'
import { importCli } from './support/import.js'

const TEAM = '00000000-0000-4000-8000-000000000001'
const folder = mkdtempSync(join(tmpdir(), 'acm-import-bounds-'))
const servers: Server[] = []
afterEach(() => Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done)))))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** A server answering each persona page with `page(offset, limit)`, as JSON. */
async function personaServer(page: (offset: number, limit: number) => unknown): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const body = JSON.stringify(page(Number(url.searchParams.get('offset')), Number(url.searchParams.get('limit'))))
    res.writeHead(200, { 'content-type': 'application/json' }).end(body)
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const persona = (n: number) => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `P${n}` })
const importFrom = (url: string, name: string, extra: string[] = []) => {
  const out = join(folder, `${name}.json`)
  return importCli(['--from', url, '--team-id', TEAM, '--out', out, ...extra], 'a-token').then((run) => ({
    ...run,
    out,
  }))
}

it('stops when every page is the same record, whatever the total says', async () => {
  const url = await personaServer(() => ({ results: [persona(1)], total: 1e15 }))
  const run = await importFrom(url, 'same-record', ['--max-records', '500'])
  expect(run.code).toBe(2)
  expect(run.stderr).toMatch(/with no personas of team \S+ not read already .* after 1: it does not page by offset/)
  expect(existsSync(run.out)).toBe(false)
})

it('stops when the records have no id', async () => {
  const url = await personaServer(() => ({ results: [{ name: 'no id' }], total: 5 }))
  const run = await importFrom(url, 'no-ids')
  expect(run.code).toBe(2)
  expect(run.stderr).toContain('(or none with an "id"), after 0')
  expect(existsSync(run.out)).toBe(false)
})

it('stops when the server ignores offset, instead of writing the first page as the list', async () => {
  const first = Array.from({ length: 100 }, (_, n) => persona(n))
  const url = await personaServer(() => ({ results: first, total: 5000 }))
  const run = await importFrom(url, 'offset-ignored')
  expect(run.code).toBe(2)
  expect(run.stderr).toContain('after 100: it does not page by offset')
  expect(existsSync(run.out)).toBe(false)
})

it('fails when the pages end before the total', async () => {
  const url = await personaServer((offset, limit) => ({
    results: offset < 150 ? Array.from({ length: Math.min(limit, 150 - offset) }, (_, n) => persona(offset + n)) : [],
    total: 5000,
  }))
  const run = await importFrom(url, 'short')
  expect(run.code).toBe(2)
  expect(run.stderr).toContain('with an empty page after 150 personas of team')
  expect(run.stderr).toContain('though its total is 5000')
  expect(existsSync(run.out)).toBe(false)
})

it('reads no page past 64 MiB, streamed or declared', async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    const chunk = Buffer.alloc(2 ** 20, 0x20) // JSON whitespace, sent without a length
    let sent = 0
    const more = () => {
      while (sent < 80 && res.write(chunk)) sent += 1
      if (sent < 80) res.once('drain', more)
      else res.end('{"results":[],"total":0}')
    }
    more()
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const run = await importFrom(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'huge')
  expect(run.code).toBe(2)
  expect(run.stderr).toMatch(/with more than 64 MiB: not read further/)
  expect(existsSync(run.out)).toBe(false)
})
