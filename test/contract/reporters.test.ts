import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningServer } from '../../hosts/server/start.js'
import { formatJson, formatJunit, formatPretty, verify, type Report } from '../../contract/index.js'
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
