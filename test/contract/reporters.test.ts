import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from '../../server/start.js'
import { formatJson, formatJunit, formatMarkdown, formatPretty, verify, type Report } from '../../verify/index.js'
import { BROKEN_VARIANTS } from './broken-variants.js'
import { startMock, verifyOptionsFor } from './support/mock.js'
import { findAll, parseXml } from './support/xml.js'

const servers: RunningServer[] = []
let passing: Report
let failing: Report

beforeAll(async () => {
  const healthy = await startMock()
  const broken = await startMock({
    handlers: BROKEN_VARIANTS.find((variant) => variant.bug === 'offset ignored')!.handlers(
      healthy.sessions.primary.fixtures,
    ),
  })
  servers.push(healthy, broken)
  passing = await verify(verifyOptionsFor(healthy, { allowWrites: false, policyId: undefined }))
  failing = await verify(verifyOptionsFor(broken))
})
afterAll(() => Promise.all(servers.map((server) => server.close())))

const SUMMARY = /^(\d+) passed, (\d+) failed, (\d+) skipped$/
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!

it('ends the readable report with exactly "N passed, N failed, N skipped"', () => {
  for (const report of [passing, failing]) {
    const { passed, failed, skipped } = report.summary
    expect(lastLine(formatPretty(report))).toBe(`${passed} passed, ${failed} failed, ${skipped} skipped`)
    expect(passed + failed + skipped).toBe(report.checks.length)
  }
  expect(passing.summary.failed).toBe(0)
  expect(passing.summary.skipped, 'read-only and without a policy: the rules and write checks skip').toBeGreaterThan(0)
})

it('colours the readable report only when asked (on a TTY), never the summary line', () => {
  expect(formatPretty(failing)).not.toContain('\u001b[')
  const coloured = formatPretty(failing, { color: true })
  expect(coloured).toContain('\u001b[31m')
  expect(lastLine(coloured)).toMatch(SUMMARY)
})

it('groups the readable report and shows each failure with its evidence and each skip with its reason', () => {
  const text = formatPretty(failing)
  expect(text.indexOf('\nSchema\n')).toBeLessThan(text.indexOf('\nPaging\n'))
  expect(text).toMatch(/✗ paging\.concatenation .*\n\s+request: +GET \/v1\/personas\/\?.*\n\s+expected: .*\n\s+got: +/)
  expect(formatPretty(passing)).toMatch(/- bulk\.defaults skipped: read-only run: pass --allow-writes/)
})

it('writes JSON that parses back to the report', () => {
  expect(JSON.parse(formatJson(failing))).toEqual(JSON.parse(JSON.stringify(failing)))
})

it('writes well-formed JUnit XML with one testcase per check, failures and skips marked', () => {
  for (const report of [passing, failing]) {
    const root = parseXml(formatJunit(report))
    const cases = findAll(root, 'testcase')
    expect(root.name).toBe('testsuites')
    expect(cases.map((testcase) => testcase.attributes['name'])).toEqual(report.checks.map((check) => check.id))
    expect(Number(root.attributes['failures'])).toBe(report.summary.failed)
    for (const [index, check] of report.checks.entries()) {
      const children = cases[index]!.children.map((child) => child.name)
      expect(children.includes('failure'), check.id).toBe(check.status === 'failed')
      expect(children.includes('skipped'), check.id).toBe(check.status === 'skipped')
    }
  }
  const failure = findAll(parseXml(formatJunit(failing)), 'failure')[0]!
  expect(failure.text).toMatch(/^request: {2}GET /)
})

it('keeps JUnit well-formed whatever the server sent', () => {
  const hostile = '</failure>]]><x a="1">&amp; & \u0001 \ud800 "quoted" \'single\''
  const report: Report = {
    ...failing,
    checks: [
      {
        id: 'schema.persona-list',
        group: 'schema',
        kind: 'contract',
        description: 'd <&>',
        status: 'failed',
        evidence: [{ request: hostile, expected: hostile, got: hostile }],
        warnings: [hostile],
        notes: [],
        durationMs: 1,
      },
    ],
  }
  const failure = findAll(parseXml(formatJunit(report)), 'failure')[0]!
  expect(failure.text).toContain('</failure>]]><x a="1">&amp; & \uFFFD \uFFFD "quoted" \'single\'')
})

it('gives every failure a ready curl command that reads the token from the environment, never printing it', () => {
  const { tokens } = servers[1]!.sessions.primary.fixtures
  const evidence = failing.checks.flatMap((check) => check.evidence)
  expect(evidence.length).toBeGreaterThan(0)
  for (const item of evidence) {
    expect(item.curl, item.request).toMatch(
      /^curl -sS -i '[^']+' -H "Authorization: Bearer \$AGENT_CONSOLE_VERIFY_TOKEN"$/,
    )
  }
  for (const text of [formatPretty(failing), formatJson(failing), formatJunit(failing), formatMarkdown(failing)]) {
    expect(text).not.toContain(tokens.team_reader)
  }
  expect(formatPretty(failing)).toMatch(/\n\s+request: +GET .*\n\s+expected: .*\n\s+got: .*\n\s+curl: +curl -sS -i /)
})

it('tags the checks that never fail in the readable report and in JUnit', () => {
  const pretty = formatPretty(passing)
  expect(pretty).toMatch(/✓ profile\.generation \[dialect, never fails\]/)
  expect(pretty).toMatch(/✓ profile\.intents \[choice, never fails\]/)
  const cases = findAll(parseXml(formatJunit(passing)), 'property')
  expect(new Set(cases.map((property) => property.attributes['value']))).toEqual(
    new Set(['contract', 'dialect', 'choice']),
  )
})

it('writes Markdown for a pull-request comment: the verdict, each failure with its curl, the profile file', () => {
  const markdown = formatMarkdown(failing)
  expect(markdown).toMatch(/^### agent-console-mock verify: ❌ \d+ contract checks failed\n/)
  expect(markdown).toContain('#### ✗ `paging.concatenation` (contract)')
  expect(markdown).toMatch(
    /```sh\n {2}curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/personas\/\?[^']*' -H "Authorization: Bearer \$AGENT_CONSOLE_VERIFY_TOKEN"\n {2}```/,
  )
  const profile = /```json\n([\s\S]*?)\n```/.exec(markdown)?.[1]
  expect(JSON.parse(profile ?? 'null')).toEqual(failing.profile.settings)
  expect(formatMarkdown(passing)).toMatch(/^### agent-console-mock verify: ✅ the server keeps the mock's contract\n/)
  expect(formatMarkdown(passing)).toContain('<summary>Skipped (')
})
