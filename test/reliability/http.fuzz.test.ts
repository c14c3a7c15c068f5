import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from 'agent-console-mock/server'
import { loggedErrors, startTestServer } from '../support/server.js'
import { expectationFor, problemsWith } from './support/answers.js'
import { apiRequest, describe, type FuzzRequest } from './support/arbitraries.js'
import { fuzzParameters, HANG_GUARD_MS, tally, timeoutFor, withinMs } from './support/fuzz.js'
import { rawExchange, rawRequest } from './support/raw-http.js'

const RUNS = 200
const MAX_BODY_BYTES = 2048
const INVALID_SESSION = 'Invalid x-mock-session: use 1 to 128 characters among A-Z a-z 0-9 . _ ~ -'

let running: RunningServer

beforeAll(async () => {
  // Two sessions at most, so that generated session keys also evict each other.
  running = await startTestServer({ seed: 32, personasPerTeam: 20, maxBodyBytes: MAX_BODY_BYTES, sessionLimit: 2 })
})
afterAll(() => running.close())

const fixtures = () => running.sessions.primary.fixtures
const ids = () => ({
  teams: fixtures().teams.map((t) => t.id),
  dimensions: fixtures().dimensions.map((d) => d.id),
  policies: fixtures().policies.map((p) => p.id),
})

/** What only the wire allows: a Host of any shape, an absolute-form target, a session, a chunked body. */
const wireExtras = fc.record({
  host: fc.option(
    fc.constantFrom('example.test:8080', '', 'evil host', 'a/b', 'user@h', '[::1', 'h?x', 'UPPER.example'),
    { freq: 2 },
  ),
  session: fc.option(fc.constantFrom('worker-1', 'worker-2', 'worker-3', 'has space', 'x'.repeat(129), 'ok~._-'), {
    freq: 3,
  }),
  chunks: fc.nat({ max: 3 }),
})

type WireRequest = FuzzRequest & { host: string | null; absoluteForm: boolean; session: string | null; chunks: number }

const wireRequest = () =>
  // Super admins thrice more: only they get through to the bulk add's validation and write.
  fc
    .tuple(
      apiRequest(ids(), [
        ...Object.values(fixtures().tokens),
        ...Array.from({ length: 3 }, () => fixtures().tokens.super_admin),
      ]),
      wireExtras,
      fc.boolean(),
    )
    .map(([request, extras, absoluteForm]): WireRequest => ({ ...request, ...extras, absoluteForm }))

const describeWire = (request: WireRequest) =>
  `${describe(request)} host=${JSON.stringify(request.host)} session=${JSON.stringify(request.session)} absolute-form=${request.absoluteForm} chunks=${request.chunks}`

function send(request: WireRequest) {
  const headers = { ...request.headers }
  if (request.host !== null) headers.host = request.host
  if (request.session !== null) headers['x-mock-session'] = request.session
  const target = request.absoluteForm ? `http://proxy.example${request.target}` : request.target
  let body: string | Uint8Array | Array<string | Uint8Array> | undefined = request.body
  if (body !== undefined && request.chunks > 1) {
    const size = Math.ceil(body.length / request.chunks)
    body = Array.from(
      { length: request.chunks },
      (_, i) => body!.slice(i * size, (i + 1) * size) as string | Uint8Array,
    ).filter((part) => part.length > 0)
  }
  return rawRequest(running.url, request.method, target, headers, body)
}

it(
  'answers any request on the wire with a documented status and body, never hanging, with nothing logged as an error',
  async () => {
    const outcomes = tally('HTTP fuzz: answers by route and status')
    await fc.assert(
      fc.asyncProperty(wireRequest(), async (request) => {
        const stored = running.sessions.primary.world.values.all().length
        const answer = await withinMs(HANG_GUARD_MS, send(request), describeWire(request))
        const pathname = new URL(`http://h${request.target}`).pathname
        const expectation = expectationFor(request.method, pathname)
        outcomes.add(`${'operation' in expectation ? expectation.operation : 'routing'} ${answer.status}`)
        // The server reads the body before anything else: too large is too large, whatever the path.
        if (request.body !== undefined && Buffer.byteLength(request.body) > MAX_BODY_BYTES) {
          expect([answer.status, answer.text], describeWire(request)).toEqual([
            413,
            '{"detail":"Request body too large"}',
          ])
          return
        }
        if (request.session !== null && !/^[A-Za-z0-9._~-]{1,128}$/.test(request.session)) {
          expect(
            [answer.status, request.method === 'HEAD' ? INVALID_SESSION : answer.json?.detail],
            describeWire(request),
          ).toEqual([400, INVALID_SESSION])
          return
        }
        expect(problemsWith(expectation, request.method, answer), describeWire(request)).toEqual([])
        if (request.session === null) {
          const added = answer.status === 201 ? (answer.json as unknown[]).length : 0
          expect(
            running.sessions.primary.world.values.all().length - stored,
            'only a 201 adds, exactly what it answers',
          ).toBe(added)
        }
      }),
      fuzzParameters(RUNS, 7_002),
    )
    outcomes.print()
    expect(loggedErrors).toEqual([])
  },
  timeoutFor(RUNS, 60),
)

/** A request's bytes, closing the connection after the answer so the exchange ends at once. */
const wire = (requestLine: string, ...headers: string[]) =>
  `${requestLine}\r\n${[...headers, 'Connection: close'].map((h) => `${h}\r\n`).join('')}\r\n`

it.each([
  ['an absolute-form target', wire('GET http://other.example/v1/personas/ HTTP/1.1', 'Host: x'), 401],
  ['an asterisk-form target', wire('OPTIONS * HTTP/1.1', 'Host: x'), 404],
  ['an empty Host', wire('GET /v1/personas/ HTTP/1.1', 'Host: '), 401],
  ['a Host with a space', wire('GET /v1/personas/ HTTP/1.1', 'Host: evil host'), 401],
  ['a Host with a path', wire('GET /v1/personas/ HTTP/1.1', 'Host: a/b'), 401],
  ['a Host that is half an IPv6 address', wire('GET /v1/personas/ HTTP/1.1', 'Host: [::1'), 401],
  ['HTTP/1.0 without a Host', wire('GET /v1/personas/ HTTP/1.0'), 401],
  ['a lone %', wire('GET /v1/personas/% HTTP/1.1', 'Host: x'), 404],
  ['%zz', wire('GET /v1/%zz HTTP/1.1', 'Host: x'), 404],
  ['an escape that is not UTF-8', wire('GET /v1/%FF HTTP/1.1', 'Host: x'), 404],
  ['an encoded surrogate in a parameter', wire('GET /v1/policies/%ED%A0%80/rules HTTP/1.1', 'Host: x'), 401],
  [
    'a path ending in %0A (Python’s $ matches before a final newline)',
    wire('GET /v1/personas/%0A HTTP/1.1', 'Host: x'),
    401,
  ],
  // Node's HTTP parser refuses a raw byte past ASCII in the target before the mock sees it.
  ['a raw Latin-1 byte in the path', wire('GET /v1/caf\xe9 HTTP/1.1', 'Host: x'), 400],
])('routes a request with %s by its path, never a 500', async (_, bytes, status) => {
  const answer = await rawExchange(running.url, bytes)
  expect(answer).toMatch(new RegExp(`^HTTP/1\\.[01] ${status} `))
})

it('keeps answering, with nothing logged as an error', async () => {
  const res = await fetch(`${running.url}/v1/personas/?limit=1`, {
    headers: { authorization: `Bearer ${fixtures().tokens.team_reader}` },
  })
  expect([res.status, ((await res.json()) as { total: number }).total]).toEqual([200, 20])
  expect(loggedErrors).toEqual([])
})
