/**
 * verify against the variants of test/contract/variants/hunted.ts, after real FastAPI servers: correct ones
 * (a choice the description leaves open) fail nothing, broken ones fail the check meant for them.
 */
import { randomUUID } from 'node:crypto'
import { HttpResponse } from 'msw'
import { beforeAll, expect, it } from 'vitest'
import type { Fixtures } from '../../factories/fixtures.js'
import { mintToken } from '../../model/auth/tokens.js'
import { verify } from '../../verify/index.js'
import { startMock, verifyOptionsFor } from './support/mock.js'
import { checkOf, failedIds, reportOn, warningsOf } from './support/reports.js'
import { override, PERSONAS, rewrite, type Json } from './support/variant.js'
import * as hunted from './variants/hunted.js'

const TIMEOUT = 30_000

let fixtures: Fixtures
beforeAll(async () => {
  const probe = await startMock()
  fixtures = probe.sessions.primary.fixtures
  await probe.close()
})

const [check, failed, warnings] = [checkOf, failedIds, warningsOf]
const otherTeam = () => fixtures.teams.find((team) => team.id !== fixtures.teams[0]!.id)!.id

it('warns, not fails, of optional fields left out (exclude_none); a required one left out fails', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(hunted.excludeNone())
  expect(failed(report)).toEqual([])
  expect(warnings(report, 'schema.persona-list')).toMatch(
    /results\[\]\.\w+: missing field, which the description leaves optional \(the mock always writes every field/,
  )
  expect(warnings(report, 'schema.rule-list')).toMatch(
    /results\[\]\.review\w+: missing field, which the description leaves optional/,
  )
  const broken = await reportOn(hunted.personaRoleMissing())
  expect(failed(broken)).toContain('schema.persona-list')
  expect(JSON.stringify(check(broken, 'schema.persona-list').evidence)).toMatch(/results\[\]\.role: missing field/)
})

it('matches the bulk answer by value: another order is a warning, with duplicates stored too', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(hunted.bulkAnswerReversed())
  expect(failed(report)).toEqual([])
  expect(warnings(report, 'bulk.records')).toMatch(/another order than the values were sent/)
  const stored = await reportOn(hunted.bulkAnswerReversed(), { profile: { bulkDuplicates: 'store' } })
  expect(failed(stored)).toEqual([])
  expect(stored.profile.settings.bulkDuplicates).toBe('store')
})

it('pages rules by page index where the second parameter counts pages, and warns the mock pages by offset', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(hunted.rulesPageIndex(), { profile: hunted.PAGE_INDEX_PAGING })
  expect(failed(report)).toEqual([])
  expect(check(report, 'paging.rules-concatenation').status).toBe('passed')
  expect(warnings(report, 'profile.rules-paging')).toMatch(
    /page is a page index, not an offset .*the mock reads it as records skipped/,
  )
})

it('warns, not fails, of a constraint model of its own', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(hunted.constraintUnion())
  expect(failed(report)).toEqual([])
  expect(warnings(report, 'drift.responses')).toMatch(
    /constraints\[\]\.right_operand: string in the mock, .* on the server \(the fields of a constraint object are not shown/,
  )
})

it('warns, not fails, of a declared minimum number of bulk values', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(hunted.valuesNonEmpty())
  expect(failed(report)).toEqual([])
  expect(warnings(report, 'drift.request-body')).toMatch(
    /body\.values: minItems none in the mock, 1 on the server: .*sets no minimum/,
  )
})

it('warns of a JWT taken under another scheme word; fails a scheme that lets anyone in', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(hunted.anyScheme())
  expect(failed(report)).toEqual([])
  expect(warnings(report, 'auth.wrong-scheme')).toMatch(
    /takes the JWT under another scheme word \(more lenient than the mock/,
  )
  const broken = await reportOn(hunted.basicLetsAnyoneIn(fixtures))
  expect(failed(broken)).toEqual(['auth.wrong-scheme'])
})

it('goes on when the admin token cannot find --other-policy-id, saying so', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(hunted.adminScopedToItsTeam(fixtures))
  expect(failed(report)).toEqual([])
  expect(check(report, 'auth.other-team-policy').status).toBe('passed')
  expect(warnings(report, 'auth.other-team-policy')).toMatch(
    /could not be confirmed a policy of another team \(--admin-token does not find it either/,
  )
})

it('fails filters applied after paging', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(hunted.filterAfterPaging())
  expect(failed(report)).toEqual(['filters.paged'])
})

it("fails another team's presets listed under is_preset=true", { timeout: TIMEOUT }, async () => {
  const report = await reportOn(hunted.presetsOfAnyTeam(fixtures))
  expect(failed(report)).toEqual(['auth.other-team'])
})

it('fails a team checked for existence only, given a real other team', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(hunted.teamExistsOnly(fixtures), { options: { otherTeamId: otherTeam() } })
  expect(failed(report)).toEqual(['auth.other-team'])
  expect(report.ids.otherTeamId).toBe(otherTeam())
})

it("learns a real other team from the admin's list, past pages of the token's own team", {
  timeout: TIMEOUT,
}, async () => {
  const running = await startMock({ personasPerTeam: 250 })
  try {
    const { fixtures: big } = running.sessions.primary
    running.use(...hunted.teamExistsOnly(big), ...hunted.adminListsEveryTeam(big))
    const report = await verify(verifyOptionsFor(running))
    expect(failed(report)).toEqual(['auth.other-team'])
    expect(report.ids.otherTeamId).not.toBe(big.teams[0]!.id)
    expect(big.teams.map((team) => team.id)).toContain(report.ids.otherTeamId)
  } finally {
    await running.close()
  }
})

it('learns a real other team from the team an admin token is scoped to', { timeout: TIMEOUT }, async () => {
  const [own, other] = [fixtures.teams[0]!.id, otherTeam()]
  const adminToken = await mintToken({ sub: randomUUID(), team_id: other, permissions: [], is_super_admin: true })
  // A server that lists no personas without team_id, even for an admin: the token's scope is all there is to learn.
  const teamRequired = override('get', PERSONAS, (request) =>
    new URL(request.url).searchParams.has('team_id')
      ? undefined
      : HttpResponse.json({ detail: 'team_id is required' }, { status: 400 }),
  )
  const report = await reportOn([...hunted.teamExistsOnly(fixtures), teamRequired], {
    options: { adminToken, teamId: own },
  })
  expect(failed(report)).toEqual(['auth.other-team'])
  expect(report.ids.otherTeamId).toBe(other)
  const scopedToOwn = await mintToken({ sub: randomUUID(), team_id: own, permissions: [], is_super_admin: true })
  const unknown = await reportOn(hunted.teamExistsOnly(fixtures), { options: { adminToken: scopedToOwn } })
  expect(unknown.ids.otherTeamId).toBeUndefined()
  expect(check(unknown, 'auth.other-team').notes.join('\n')).toMatch(/no real team of another was known/)
})

it('writes reject for a 409 on stored values only, and warns that a repeat within a request is stored once', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(hunted.repeatsInOneRequestSkipped(), { profile: { bulkDuplicates: 'reject' } })
  expect(failed(report)).toEqual([])
  expect(report.profile.settings.bulkDuplicates).toBe('reject')
  expect(warnings(report, 'bulk.duplicates')).toMatch(
    /answered 201 with it once \(a repeat within one request skipped\): bulkDuplicates: 'reject' is written/,
  )
})

it('reads ids in upper case as the same ids, and warns of the spelling; an id that is no UUID fails', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(hunted.upperCaseIds())
  expect(failed(report)).toEqual([])
  expect(warnings(report, 'schema.persona-list')).toMatch(/results\[\]\.team_id: .*not a lower-case hyphenated UUID/)
  expect(warnings(report, 'schema.rule-list')).toMatch(/results\[\]\.policy_id: .*not a lower-case hyphenated UUID/)
  const broken = await reportOn([
    rewrite('get', PERSONAS, (body) => ({ ...body, results: body.results.map((p: Json) => ({ ...p, id: 'p-1' })) })),
  ])
  expect(failed(broken)).toContain('schema.persona-list')
  expect(JSON.stringify(check(broken, 'schema.persona-list').evidence)).toMatch(
    /results\[\]\.id: not a hyphenated UUID/,
  )
})

it('judges a server that looks the dimension up before the body, however it refuses an unknown one', {
  timeout: 4 * TIMEOUT,
}, async () => {
  for (const refusal of [404, 403, 422] as const) {
    const report = await reportOn(hunted.dimensionLookedUpFirst(fixtures, refusal))
    expect(failed(report), `unknown dimension answered ${refusal}`).toEqual([])
    expect(check(report, 'validation.body').status).toBe('passed')
    expect(check(report, 'validation.bulk-limits').notes.join('\n')).toMatch(
      /not probed: the server looks the dimension up before it reads the body .* answered \d+, not a 422 at the body/,
    )
  }
  const readOnly = await reportOn(hunted.dimensionLookedUpFirst(fixtures, 404), {
    options: { allowWrites: false, dimensionId: undefined },
  })
  expect(failed(readOnly)).toEqual([])
  expect(warnings(readOnly, 'validation.body')).toMatch(
    /not judged: the server looks the dimension up before it reads the body .*; pass --dimension-id to send them there/,
  )
})

it('fails a dimension_id that is not checked for a UUID', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(hunted.dimensionIdNotChecked())
  expect(failed(report)).toEqual(['validation.uuid'])
})

it("warns, not fails, of another team's policy readable and of rules needing no permission", {
  timeout: TIMEOUT,
}, async () => {
  const anyTeam = await reportOn(hunted.rulesOfAnyTeam(fixtures))
  expect(failed(anyTeam)).toEqual([])
  expect(warnings(anyTeam, 'auth.other-team-policy')).toMatch(
    /answered 200: the server lists the rules of another team's policy; the mock answers 404 \(decisions\.md/,
  )
  const noPermission = await reportOn(hunted.rulesWithoutPermission(fixtures))
  expect(failed(noPermission)).toEqual([])
  expect(warnings(noPermission, 'auth.no-permission')).toMatch(
    /with a token without permissions answered 200: the server lists rules without a permission the token lacks; the mock requires policy:read/,
  )
})

it('waits out a rate limit (429 with Retry-After) and sends the request again, saying how often', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(hunted.rateLimited())
  expect(failed(report)).toEqual([])
  expect(report.notes.join('\n')).toMatch(
    /\d+ refused with 429 \(a rate limit\) and sent again after the wait it asked for/,
  )
})

it('takes a missing permission refused with 401, and still stops on a no-permission token the server rejects', {
  timeout: TIMEOUT,
}, async () => {
  const report = await reportOn(hunted.permissionRefusedWith401(fixtures))
  expect(failed(report)).toEqual([])
  expect(warnings(report, 'auth.no-permission')).toMatch(/refused with 401 .*the mock answers 403/)
  const forged = `${fixtures.tokens.no_permissions.slice(0, -2)}AA`
  await expect(reportOn([], { options: { noPermToken: forged } })).rejects.toThrow(
    /^The server rejects --no-perm-token \(401 "Could not validate credentials"\)/,
  )
})

it('fails a team_id refused in upper case, the same UUID', { timeout: TIMEOUT }, async () => {
  const report = await reportOn(hunted.teamIdComparedAsText(), { options: { teamId: fixtures.teams[0]!.id } })
  expect(failed(report)).toEqual(['validation.uuid'])
})
