/**
 * The passive judge on real HTTP answers: the standalone mock's answers keep the contract, and each broken
 * variant's (test/contract/variants) are flagged with the check that the bug breaks, from one answer alone.
 */
import { beforeAll, expect, it } from 'vitest'
import type { Fixtures } from '../../factories/fixtures.js'
import { type JudgedExchange, judgeExchange, type ProfileFile } from '../../verify/index.js'
import { BROKEN_VARIANTS } from './broken-variants.js'
import { startMock } from './support/mock.js'

interface Sent {
  method?: string
  path: string
  admin?: boolean
  body?: unknown
}

let fixtures: Fixtures
let total: number
beforeAll(async () => {
  const probe = await startMock()
  fixtures = probe.sessions.primary.fixtures
  total = ((await send(probe.url, personas(''))).responseBody as { total: number }).total
  await probe.close()
})

const personas = (query: string): Sent => ({ path: `/v1/personas/?team_id=${fixtures.teams[0]!.id}&${query}` })
const bulk = (values: unknown[]): Sent => ({
  method: 'POST',
  path: `/v1/demographics/${fixtures.dimensions[0]!.id}/values/bulk`,
  admin: true,
  body: { values },
})

/** Each variant a single answer shows, the request that shows it, and the check that flags it. */
const CASES: Array<{ bug: string; sent: () => Sent; check: string; profile?: ProfileFile }> = [
  { bug: 'a persona of another team slips into every page', sent: () => personas(''), check: 'filters.team-scope' },
  { bug: 'intents ignored', sent: () => personas('intents=curious&limit=100'), check: 'filters.intents' },
  {
    bug: 'is_preset=false ignored (a falsy check)',
    sent: () => personas('is_preset=false&limit=100'),
    check: 'filters.is-preset',
  },
  {
    bug: 'total counts what is left after the offset',
    sent: () => personas(`offset=${total - 3}`),
    check: 'paging.total',
  },
  {
    bug: 'the unfiltered total counts a soft-deleted persona',
    sent: () => personas(`offset=${total - 3}`),
    check: 'paging.page-size',
  },
  { bug: 'limit silently capped at 50', sent: () => personas('limit=80'), check: 'paging.page-size' },
  { bug: 'default limit of 20', sent: () => personas(''), check: 'paging.limit-respected' },
  { bug: 'personas lose created_by', sent: () => personas(''), check: 'schema.persona-list' },
  { bug: 'persona timestamps as ISO strings', sent: () => personas(''), check: 'schema.persona-list' },
  {
    bug: 'rule timestamps as ISO strings',
    sent: () => ({ path: `/v1/policies/${fixtures.policies[0]!.id}/rules` }),
    check: 'schema.rule-list',
  },
  {
    bug: 'wrong error shape: 422 detail as one string',
    sent: () => personas('limit=0'),
    check: 'schema.validation-error',
  },
  {
    bug: 'added values get a fractional created_at',
    sent: () => bulk([{ value: 'v-1' }]),
    check: 'schema.bulk-values',
  },
  { bug: 'metadata not returned', sent: () => bulk([{ value: 'v-2', metadata: { a: 1 } }]), check: 'bulk.records' },
  {
    bug: 'duplicates skipped against the dimension but not within the request',
    sent: () => bulk([{ value: 'v-3' }, { value: 'v-3' }]),
    check: 'bulk.duplicates',
    // Stored again is a choice too: one answer shows the bug only to a judge told the server skips.
    profile: { bulkDuplicates: 'skip' },
  },
]

/** Sends one request to a server and returns the exchange as a proxy would see it. */
async function send(baseUrl: string, sent: Sent): Promise<JudgedExchange> {
  const token = sent.admin ? fixtures.tokens.super_admin : fixtures.tokens.team_reader
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const body = sent.body === undefined ? undefined : JSON.stringify(sent.body)
  const url = new URL(sent.path, baseUrl)
  const response = await fetch(url, { method: sent.method ?? 'GET', headers, body })
  const text = await response.text()
  return {
    method: sent.method ?? 'GET',
    path: url.pathname,
    query: url.search.slice(1),
    requestBody: sent.body,
    status: response.status,
    responseBody: text ? JSON.parse(text) : undefined,
    contentType: response.headers.get('content-type'),
  }
}

it('finds nothing wrong in the answers of the mock itself', async () => {
  const running = await startMock()
  try {
    expect(total, 'enough personas for every case').toBeGreaterThan(50)
    for (const { sent } of CASES) {
      const exchange = await send(running.url, sent())
      expect(judgeExchange(exchange), `${exchange.method} ${exchange.path}?${exchange.query}`).toEqual([])
    }
  } finally {
    await running.close()
  }
})

it.each(CASES)('flags "$bug" with $check from one answer', async ({ bug, sent, check, profile }) => {
  const variant = BROKEN_VARIANTS.find((candidate) => candidate.bug === bug)!
  const running = await startMock({ handlers: variant.handlers(fixtures) })
  try {
    const violations = judgeExchange(await send(running.url, sent()), { profile })
    expect(violations.map((violation) => violation.check)).toContain(check)
  } finally {
    await running.close()
  }
})
