import { test as base, expect, type TestInfo } from '@playwright/test'
import type { z } from 'zod'
import type { Fixtures } from '../../factories/fixtures.js'
import type { TokenClaims } from '../../model/auth/tokens.js'
import type { JournalEntry, JournalFilter } from '../../core/journal/journal.js'
import type { FaultsConfig } from '../../core/instance/faults.js'

/** The session a test works in on a standalone mock server. */
export interface MockSession {
  /** The session key: from the test's id, its worker, retry and repeat (`pw-<testId>-w0-r0`). */
  readonly key: string
  /** The standalone server's URL (`mockServerUrl`), without the session. */
  readonly serverUrl: string
  /** The server's URL with the session in the path: give it to an app that fetches on the server (`API_URL`). */
  readonly baseUrl: string
  /** `X-Mock-Session: <key>`: every request of the test's browser context carries it already. */
  readonly headers: Readonly<Record<string, string>>
}

export interface ServerMockOptions {
  /** The standalone server's URL. @default 'http://127.0.0.1:4010' */
  mockServerUrl: string
  /** `X-Mock-Control-Token`, for a server started with one (bound beyond loopback). @default none */
  mockControlToken: string | undefined
  /** A snapshot (`POST /__mock/snapshots`) every test's session starts from. @default none: the seeded world */
  mockSessionFrom: string | undefined
}

/** `PUT /__mock/faults`'s body, as it may be written (rates default to 1). */
export type FaultsInput = z.input<typeof FaultsConfig>

/**
 * The control API of one test's session on a standalone server, over HTTP: the same
 * operations as `mock` of the in-process fixture where HTTP has them.
 */
export class ServerMock {
  /** @internal the fixture builds it */
  constructor(
    readonly session: MockSession,
    private readonly controlToken?: string,
  ) {}

  /** Ids of the session world's seeded records and ready tokens (`GET /__mock/fixtures`). */
  readonly fixtures = (): Promise<Fixtures> => this.control('GET', '/fixtures')

  /** Back to a freshly seeded world (the server's seed and size where not given); clears faults. */
  readonly reset = (options: { seed?: number; personas?: number } = {}): Promise<Fixtures> =>
    this.control('POST', '/reset', options)

  /** A freshly seeded world with these scenarios applied in order (`PUT /__mock/scenario`). */
  readonly scenario = async (names: string | readonly string[]): Promise<void> => {
    const scenarios = typeof names === 'string' ? names.split(',').map((name) => name.trim()) : [...names]
    await this.control('PUT', '/scenario', { scenarios })
  }

  /** Sets the session's faults (latency, errors, dropped connections); `{}` clears them. */
  readonly faults = (config: FaultsInput): Promise<FaultsConfig> => this.control('PUT', '/faults', config)

  /** Keeps the session's world as a snapshot of the server (every session can start from it). */
  readonly snapshot = async (name = 'default'): Promise<void> =>
    void (await this.control('POST', '/snapshots', { name }))

  /** Puts the session's world back to a snapshot. */
  readonly restore = async (name = 'default'): Promise<void> =>
    void (await this.control('POST', `/snapshots/${encodeURIComponent(name)}/restore`))

  /** A token signed with the server's secret (`POST /__mock/tokens`). */
  readonly mintToken = async (claims: TokenClaims): Promise<string> =>
    ((await this.control('POST', '/tokens', claims)) as { token: string }).token

  /** The requests the session answered, oldest first (`GET /__mock/requests`). */
  readonly requests = async (filter: JournalFilter = {}): Promise<JournalEntry[]> => {
    const query = new URLSearchParams(
      Object.entries(filter).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString()
    const path = query === '' ? '/requests' : `/requests?${query}`
    return ((await this.control('GET', path)) as { requests: JournalEntry[] }).requests
  }

  /**
   * Any control route of the session (`/__mock/<path>`), its JSON answer; a status of 400 or more throws,
   * with the server's detail.
   * @example await mock.control('POST', '/records/personas', { team_id, name: 'Ada' })
   */
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer, typed by the caller
  readonly control = async (method: string, path: string, body?: unknown): Promise<any> => {
    const headers: Record<string, string> = { ...this.session.headers }
    if (this.controlToken !== undefined) headers['x-mock-control-token'] = this.controlToken
    if (body !== undefined) headers['content-type'] = 'application/json'
    const url = `${this.session.baseUrl}/__mock${path}`
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
    const response = await fetchFromServer(this.session.serverUrl, url, init)
    const text = await response.text()
    if (response.status >= 400) throw new Error(`${method} ${url} answered ${response.status}: ${text}`)
    return text === '' ? undefined : JSON.parse(text)
  }

  /** Forgets the session on the server (`DELETE /__mock/sessions/{key}`); the fixture does it after each test. */
  readonly drop = async (): Promise<void> => {
    const headers = this.controlToken === undefined ? undefined : { 'x-mock-control-token': this.controlToken }
    const url = `${this.session.serverUrl}/__mock/sessions/${this.session.key}`
    const response = await fetchFromServer(this.session.serverUrl, url, { method: 'DELETE', headers })
    await response.body?.cancel()
    if (response.status !== 204 && response.status !== 404) throw new Error(`DELETE ${url} answered ${response.status}`)
  }
}

/**
 * `fetch` to the standalone server. When nothing answers there (no server started, another port), undici's
 * `TypeError: fetch failed` names neither the option nor what to do: this says both, with undici's error as the
 * cause.
 */
async function fetchFromServer(serverUrl: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (error) {
    throw new Error(noServerAt(serverUrl, error), { cause: error })
  }
}

/** What to do when no mock server answers at `mockServerUrl`, as one sentence. */
function noServerAt(serverUrl: string, error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause
  const why = typeof cause?.code === 'string' ? ` (${cause.code})` : ''
  const port = portOf(serverUrl)
  const start = `npx agent-console-mock --port ${port}`
  return (
    `agent-console-mock/playwright/server: no mock server answers at ${serverUrl}, the mockServerUrl option${why}: ` +
    `start one before the tests (\`${start}\`, or Playwright's webServer in playwright.config.ts: ` +
    `{ command: '${start}', url: '${serverUrl}/__mock/health' }), or set mockServerUrl to the server that runs.`
  )
}

/** The port a server URL names, or its scheme's default. */
function portOf(serverUrl: string): string {
  try {
    const url = new URL(serverUrl)
    return url.port || (url.protocol === 'https:' ? '443' : '80')
  } catch {
    return '<port>'
  }
}

/**
 * A session key unique to a test run: its id (stable across runs), worker, retry and repeat.
 * Every character is one a key may hold.
 */
export function sessionKeyOf(testInfo: TestInfo): string {
  const repeat = testInfo.repeatEachIndex > 0 ? `-x${testInfo.repeatEachIndex}` : ''
  return `pw-${testInfo.testId}-w${testInfo.workerIndex}-r${testInfo.retry}${repeat}`.replace(/[^A-Za-z0-9._~-]/g, '_')
}

/**
 * Playwright's `test` for a standalone mock server (`agent-console-mock --port 4010`): each test
 * gets a session of its own (`mockSession`: key, base URL, headers), every request of its
 * browser context carries `X-Mock-Session` (`extraHTTPHeaders`), `mock` drives the session's
 * control API, and the session is dropped after the test. An app that fetches on the server
 * (Next.js, Remix) is given `mockSession.baseUrl`, the session in the path.
 * The in-process fixture is `agent-console-mock/playwright`.
 * @example
 * test.use({ mockServerUrl: 'http://127.0.0.1:4010' })
 * test('shows an empty team', async ({ page, mock, mockSession }) => {
 *   await mock.scenario('empty-team')
 *   await page.goto(`/?api=${encodeURIComponent(mockSession.baseUrl)}`)
 * })
 */
export const test = base.extend<ServerMockOptions & { mockSession: MockSession; mock: ServerMock }>({
  mockServerUrl: ['http://127.0.0.1:4010', { option: true }],
  mockControlToken: [undefined, { option: true }],
  mockSessionFrom: [undefined, { option: true }],
  mockSession: async ({ mockServerUrl, mockControlToken, mockSessionFrom }, use, testInfo) => {
    const key = sessionKeyOf(testInfo)
    const server = mockServerUrl.replace(/\/+$/, '')
    const session = {
      key,
      serverUrl: server,
      baseUrl: `${server}/__session/${key}`,
      headers: { 'x-mock-session': key },
    }
    const mock = new ServerMock(session, mockControlToken)
    await mock.drop() // a run cut short may have left a session of this key behind
    if (mockSessionFrom !== undefined) await startFrom(session, mockSessionFrom, mockControlToken)
    await use(session)
    await mock.drop()
  },
  extraHTTPHeaders: async ({ extraHTTPHeaders, mockSession }, use) => {
    await use({ ...extraHTTPHeaders, ...mockSession.headers })
  },
  // Set on the context too: a `test.use({ extraHTTPHeaders })` replaces the option above, not this.
  context: async ({ context, extraHTTPHeaders, mockSession }, use) => {
    await context.setExtraHTTPHeaders({ ...extraHTTPHeaders, ...mockSession.headers })
    await use(context)
  },
  mock: async ({ mockSession, mockControlToken }, use) => {
    await use(new ServerMock(mockSession, mockControlToken))
  },
})

/** Creates the session from a snapshot (`X-Mock-Session-From` acts when the session is new). */
async function startFrom(session: MockSession, snapshot: string, controlToken: string | undefined): Promise<void> {
  const from = { ...session, headers: { ...session.headers, 'x-mock-session-from': snapshot } }
  await new ServerMock(from, controlToken).control('GET', '/fixtures')
}

export { expect }

/** The API's bodies as the app receives and sends them (types only). */
export type * from '../../model/api/wire-types.js'
