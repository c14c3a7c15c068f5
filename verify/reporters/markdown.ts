import { CURL_NOTE } from '../client/curl.js'
import type { CheckResult, Report } from '../types.js'
import { cutShortText, KIND_TAGS, summaryLine } from './pretty.js'

/**
 * The report as GitHub-flavoured Markdown, for a pull-request comment: the verdict first, each
 * failure with its evidence and a ready curl command, then what the profile learned, and the
 * warnings and skips folded away. Server texts go into code spans or fenced blocks only.
 */
export function formatMarkdown(report: Report): string {
  const failed = report.checks.filter((check) => check.status === 'failed')
  const verdict = report.ok
    ? report.cutShort
      ? `⚠️ ${cutShortText(report.cutShort)}`
      : "✅ the server keeps the mock's contract"
    : `❌ ${failed.length} contract check${failed.length > 1 ? 's' : ''} failed`
  const lines = [`### agent-console-mock verify: ${verdict}`, '', `\`${report.baseUrl}\`: ${summaryLine(report)}`, '']
  if (failed.length) lines.push(`${CURL_NOTE}.`, '', ...failed.flatMap(failure))
  lines.push(...profile(report), ...folded(report))
  return `${lines.join('\n')}\n`
}

function failure(check: CheckResult): string[] {
  const evidence = check.evidence.flatMap((item) => [
    `- **request** ${code(item.request)}`,
    `  - expected: ${code(item.expected)}`,
    `  - got: ${code(item.got)}`,
    ...(item.curl ? ['', '  ```sh', `  ${item.curl}`, '  ```'] : []),
  ])
  return [`#### ✗ \`${check.id}\` (${KIND_TAGS[check.kind]})`, '', escapeText(check.description), '', ...evidence, '']
}

function profile(report: Report): string[] {
  const { settings, undetermined, observations } = report.profile
  const lines = [
    '#### Profile the server showed',
    '',
    'For `agent-console-mock --profile mock-profile.json`:',
    '',
    '```json',
    JSON.stringify(settings, null, 2),
    '```',
    '',
  ]
  const rows = [
    ...Object.entries(undetermined).map(([name, reason]) => `| \`${name}\` | not seen: ${cell(String(reason))} |`),
    ...Object.entries(observations).map(([name, value]) => `| ${cell(name)} | ${cell(value)} |`),
  ]
  return rows.length ? [...lines, '| | |', '| --- | --- |', ...rows, ''] : lines
}

function folded(report: Report): string[] {
  const warnings = report.checks.flatMap((check) =>
    check.warnings.map((warning) => `- \`${check.id}\` (${check.kind}): ${cell(warning)}`),
  )
  const skipped = report.checks
    .filter((check) => check.status === 'skipped')
    .map((check) => `- \`${check.id}\`: ${cell(check.reason ?? '')}`)
  const details = (title: string, items: string[]) =>
    items.length
      ? ['<details>', `<summary>${title} (${items.length})</summary>`, '', ...items, '', '</details>', '']
      : []
  return [...details('Reported, never failed', warnings), ...details('Skipped', skipped)]
}

/** A code span that holds any text: a fence longer than any backtick run inside. */
function code(text: string): string {
  const flat = text.replace(/\s+/g, ' ')
  const fence = '`'.repeat(Math.max(0, ...[...flat.matchAll(/`+/g)].map((run) => run[0].length)) + 1)
  return `${fence}${flat.startsWith('`') || flat.endsWith('`') ? ` ${flat} ` : flat}${fence}`
}

/** Plain text in a table cell or list item: markup characters escaped, one line. */
function cell(text: string): string {
  return escapeText(text.replace(/\s+/g, ' ')).replace(/\|/g, '\\|')
}

function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>#]/g, (character) => `\\${character}`)
}
