import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { jwtVerify } from 'jose'
import { afterAll, expect, it } from 'vitest'
import { DEVELOPMENT_JWT_SECRET } from 'agent-console-mock'
import type { AddressInfo } from 'node:net'
import { startTestServer } from '../support/server.js'
import { startCli } from './support/cli.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-exposure-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** An IPv4 address of this machine that is not loopback, if it has one. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address

/** Whether a TCP connection to host:port is accepted. */
const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, host)
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })

it('binds to 127.0.0.1 unless told otherwise', async () => {
  const running = await startTestServer({ personasPerTeam: 1 })
  try {
    const { address, port } = running.server.address() as AddressInfo
    expect(address).toBe('127.0.0.1')
    expect(await reachable('127.0.0.1', port)).toBe(true)
    if (outsideAddress) expect(await reachable(outsideAddress, port), `not on ${outsideAddress}`).toBe(false)
  } finally {
    await running.close()
  }
})

it.skipIf(!outsideAddress)(
  'listens beyond loopback only when a host is given, and then guards its control API',
  async () => {
    await expect(startTestServer({ personasPerTeam: 1, host: '0.0.0.0' })).rejects.toThrow(
      /development secret.*AGENT_CONSOLE_MOCK_JWT_SECRET/,
    )
    const running = await startTestServer({ personasPerTeam: 1, host: '0.0.0.0', jwtSecret: 'a-team-secret' })
    try {
      const port = (running.server.address() as AddressInfo).port
      expect(await reachable(outsideAddress!, port)).toBe(true)
      const base = `http://${outsideAddress}:${port}`
      expect((await fetch(`${base}/__mock/fixtures`)).status, 'no control token').toBe(401)
      const withToken = await fetch(`${base}/__mock/fixtures`, {
        headers: { 'x-mock-control-token': running.controlToken! },
      })
      expect(withToken.status, 'the token the server made up, on its own address').toBe(200)
    } finally {
      await running.close()
    }
  },
)

it('switches the whole control API off with --no-control and says so, while the API answers with --max-body-bytes applied', async () => {
  const server = await startCli([
    '--port',
    '0',
    '--quiet',
    '--no-control',
    '--personas',
    '2',
    '--max-body-bytes',
    '100',
  ])
  try {
    for (const [method, path] of [
      ['GET', '/__mock/fixtures'],
      ['POST', '/__mock/reset'],
      ['POST', '/__mock/tokens'],
      ['PUT', '/__mock/faults'],
      ['GET', '/__mock/state'],
      ['PUT', '/__mock/state'],
      ['DELETE', '/__mock/requests'],
      ['GET', '/__mock/anything'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      })
      expect([path, res.status, await res.text()]).toEqual([
        path,
        404,
        '{"detail":"The control API is switched off (--no-control)"}',
      ])
    }
    // The banner is then the only place to find tokens and ids, and it points at no control API.
    const banner = server.output()
    expect(banner).toContain('control API switched off')
    expect(banner).not.toContain('/__mock/')
    const [reader, admin] = ['team_reader', 'super_admin'].map(
      (role) => new RegExp(`${role}\\s+(\\S+)`).exec(banner)![1]!,
    )
    const listed = await fetch(`${server.url}/v1/personas/`, { headers: { authorization: `Bearer ${reader}` } })
    expect([listed.status, ((await listed.json()) as { total: number }).total]).toEqual([200, 2])
    const dimension = /dimensions\n\s+([0-9a-f-]{36})/.exec(banner)![1]!
    const post = (body: string) =>
      fetch(`${server.url}/v1/demographics/${dimension}/values/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body,
      })
    const fits = `{"values":[{"value":"${'f'.repeat(100 - 25)}"}]}`
    expect([fits.length, (await post(fits)).status]).toEqual([100, 201])
    const over = await post(`${fits} `)
    expect([over.status, await over.text()]).toEqual([413, '{"detail":"Request body too large"}'])
  } finally {
    expect(await server.stop()).toBe(0)
  }
})

it('never prints or answers a secret but the documented development one, whatever it is asked', async () => {
  const secret = 'a-private-secret-nobody-may-see-0123456789'
  const unrelated = 'sk-live-unrelated-environment-value-42'
  const forms = (text: string) => [
    text,
    Buffer.from(text).toString('base64'),
    Buffer.from(text).toString('base64url'),
    Buffer.from(text).toString('hex'),
  ]
  const server = await startCli(['--port', '0', '--personas', '2', '--state-file', join(folder, 'state.json')], {
    AGENT_CONSOLE_MOCK_JWT_SECRET: secret,
    SOME_API_KEY: unrelated,
  })
  const answers: string[] = []
  try {
    const token = /team_reader\s+(\S+)/.exec(server.output())![1]!
    await expect(
      jwtVerify(token, new TextEncoder().encode(secret)),
      'banner tokens are signed with the configured secret',
    ).resolves.toBeDefined()
    await expect(jwtVerify(token, new TextEncoder().encode(DEVELOPMENT_JWT_SECRET))).rejects.toThrow()
    const fixtures = (await (await fetch(`${server.url}/__mock/fixtures`)).json()) as {
      dimensions: Array<{ id: string }>
      tokens: Record<string, string>
    }
    const requests: Array<[string, RequestInit?]> = [
      ['/__mock/fixtures'],
      ['/__mock/state'],
      ['/__mock/faults'],
      ['/__mock/requests'],
      ['/openapi.json'],
      ['/docs'],
      ['/v1/personas/'],
      ['/v1/personas/', { headers: { authorization: 'Bearer not.a.token' } }],
      ['/v1/personas/', { headers: { authorization: `Bearer ${fixtures.tokens.expired}` } }],
      ['/__mock/tokens', { method: 'POST', body: '{"sub":"me"}' }],
      ['/__mock/tokens', { method: 'POST', body: '{' }],
      [
        `/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${fixtures.tokens.super_admin}`, 'content-type': 'application/json' },
          body: '{"values":[{"value":"v"}]}',
        },
      ],
    ]
    for (const [path, init] of requests) answers.push(await (await fetch(`${server.url}${path}`, init)).text())
  } finally {
    expect(await server.stop('SIGINT')).toBe(0)
  }
  const everything = [server.output(), ...answers].join('\n')
  for (const form of [...forms(secret), ...forms(unrelated)])
    expect(everything, 'a secret in some encoding').not.toContain(form)
  expect(server.output()).toContain('signed with the secret from AGENT_CONSOLE_MOCK_JWT_SECRET')
})
