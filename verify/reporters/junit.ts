import type { CheckGroup, CheckResult, Report } from '../types.js'

/**
 * JUnit XML for CI systems: one `<testsuite>` per group, one `<testcase>` per check (named by
 * its id), `<failure>` with the evidence, `<skipped>` with the reason, warnings in `<system-out>`.
 */
export function formatJunit(report: Report): string {
  const groups = [...new Set(report.checks.map((check) => check.group))]
  const { passed, failed, skipped } = report.summary
  const suites = groups.map((group) =>
    testsuite(
      group,
      report.checks.filter((check) => check.group === group),
    ),
  )
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-console-mock verify" tests="${passed + failed + skipped}" failures="${failed}" skipped="${skipped}" errors="0" time="${seconds(report.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n')
}

function testsuite(group: CheckGroup, checks: readonly CheckResult[]): string {
  const count = (status: CheckResult['status']) => checks.filter((check) => check.status === status).length
  const time = checks.reduce((sum, check) => sum + check.durationMs, 0)
  const attributes = `name="${group}" tests="${checks.length}" failures="${count('failed')}" skipped="${count('skipped')}" errors="0" time="${seconds(time)}"`
  return [`  <testsuite ${attributes}>`, ...checks.map(testcase), '  </testsuite>'].join('\n')
}

function testcase(check: CheckResult): string {
  const open = `    <testcase classname="contract.${check.group}" name="${escapeXml(check.id)}" time="${seconds(check.durationMs)}">`
  const body: string[] = [`      <properties><property name="kind" value="${check.kind}"/></properties>`]
  if (check.status === 'failed') {
    const message = check.evidence[0] ? `expected ${check.evidence[0].expected}` : 'failed'
    const text = check.evidence
      .map(
        (item) =>
          `request:  ${item.request}\nexpected: ${item.expected}\ngot:      ${item.got}${item.curl ? `\ncurl:     ${item.curl}` : ''}`,
      )
      .join('\n\n')
    body.push(
      `      <failure message="${escapeXml(`${check.description}: ${message}`)}" type="contract">${escapeXml(text)}</failure>`,
    )
  }
  if (check.status === 'skipped') body.push(`      <skipped message="${escapeXml(check.reason ?? '')}"/>`)
  const out = [...check.warnings.map((warning) => `warning: ${warning}`), ...check.notes]
  if (out.length > 0) body.push(`      <system-out>${escapeXml(out.join('\n'))}</system-out>`)
  return [open, ...body, '    </testcase>'].join('\n')
}

const seconds = (ms: number) => (ms / 1000).toFixed(3)

/** Escapes markup, and drops the characters XML 1.0 cannot hold at all (a server may send anything). */
function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}
