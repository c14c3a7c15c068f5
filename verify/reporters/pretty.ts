import { CURL_NOTE } from '../client/curl.js'
import type { CheckGroup, CheckKind, CheckResult, Report } from '../types.js'

/** ANSI colours, or none: a report written to a file or a CI log without a TTY stays plain text. */
interface Paint {
  green(text: string): string
  red(text: string): string
  yellow(text: string): string
  dim(text: string): string
  bold(text: string): string
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`
const COLOURS: Paint = {
  green: ansi(32, 39),
  red: ansi(31, 39),
  yellow: ansi(33, 39),
  dim: ansi(2, 22),
  bold: ansi(1, 22),
}
const PLAIN: Paint = { green: String, red: String, yellow: String, dim: String, bold: String }

const GROUP_TITLES: Record<CheckGroup, string> = {
  schema: 'Schema',
  paging: 'Paging',
  filters: 'Filters',
  validation: 'Validation',
  auth: 'Authentication',
  errors: 'Errors',
  bulk: 'Bulk add',
  profile: 'Profile (dialect and choices: reported, never failed)',
  drift: "Drift against the mock's /openapi.json",
  replay: 'Recorded interactions, replayed',
}

/** How each kind is tagged: only contract checks can fail. */
export const KIND_TAGS: Record<CheckKind, string> = {
  contract: 'contract',
  dialect: 'dialect, never fails',
  choice: 'choice, never fails',
}

/**
 * The readable report: checks grouped, each failure with its evidence and curl command, the detected profile, and
 * as the very last line `N passed, N failed, N skipped` (never coloured, so CI can grep it).
 * @example process.stdout.write(formatPretty(report, { color: process.stdout.isTTY === true }))
 */
export function formatPretty(report: Report, options: { color?: boolean } = {}): string {
  const paint = options.color ? COLOURS : PLAIN
  const lines = [
    paint.bold(`agent-console-mock verify: ${report.baseUrl}`),
    ...report.notes.map((note) => paint.dim(note)),
  ]
  if (report.summary.failed > 0) lines.push(paint.dim(CURL_NOTE))
  for (const group of Object.keys(GROUP_TITLES) as CheckGroup[]) {
    const checks = report.checks.filter((check) => check.group === group)
    if (checks.length > 0)
      lines.push('', paint.bold(GROUP_TITLES[group]), ...checks.flatMap((check) => checkLines(check, paint)))
  }
  // A replay detects no profile: it holds the server to the recorded one.
  const detected = report.checks.some((check) => check.group !== 'replay')
  lines.push('', ...(detected ? profileLines(report, paint) : []), '', ...cutShortLines(report, paint))
  lines.push(summaryLine(report))
  return `${lines.join('\n')}\n`
}

/** Above the summary, where a reader looks for the verdict: a run cut short by its deadline is not a clean pass. */
function cutShortLines(report: Report, paint: Paint): string[] {
  return report.cutShort ? [paint.yellow(`${cutShortText(report.cutShort)}.`)] : []
}

/** What a deadline left unjudged, in every format: `the run reached its deadline (120 s) and skipped 24 checks`. */
export function cutShortText({ deadlineMs, skippedChecks }: NonNullable<Report['cutShort']>): string {
  const count = skippedChecks.length
  return `the run reached its deadline (${deadlineMs / 1000} s) and skipped ${count} check${count > 1 ? 's' : ''}: not verified`
}

function checkLines(check: CheckResult, paint: Paint): string[] {
  const kind = check.kind === 'contract' ? '' : ` ${paint.dim(`[${KIND_TAGS[check.kind]}]`)}`
  const head = {
    passed: `  ${paint.green('✓')} ${check.id}${kind} ${paint.dim(check.description)}`,
    failed: `  ${paint.red('✗')} ${paint.red(check.id)} ${check.description}`,
    skipped: `  ${paint.dim(`- ${check.id} skipped: ${check.reason ?? ''}`)}`,
  }[check.status]
  const evidence = check.evidence.flatMap((item) => [
    `      ${paint.dim('request: ')} ${item.request}`,
    `      ${paint.dim('expected:')} ${item.expected}`,
    `      ${paint.dim('got:     ')} ${paint.red(item.got)}`,
    ...(item.curl ? [`      ${paint.dim('curl:    ')} ${item.curl}`] : []),
  ])
  const warnings = check.warnings.map((warning) => `      ${paint.yellow('!')} ${warning}`)
  const notes = check.status === 'skipped' ? [] : check.notes.map((note) => `      ${paint.dim(note)}`)
  return [head, ...evidence, ...warnings, ...notes]
}

function profileLines(report: Report, paint: Paint): string[] {
  const { profile } = report
  const detected = Object.entries(profile.detected).map(
    ([name, setting]) => `  ${name}: ${JSON.stringify(setting.value)} ${paint.dim(`(${setting.source})`)}`,
  )
  const undetermined = Object.entries(profile.undetermined).map(
    ([name, reason]) => `  ${name}: ${paint.dim(`not seen, ${reason}`)}`,
  )
  const observed = Object.entries(profile.observations).map(([name, value]) => `  ${name}: ${value}`)
  return [
    paint.bold('Detected profile'),
    ...detected,
    ...undetermined,
    ...observed,
    `  ${paint.dim('as a --profile file:')} ${JSON.stringify(profile.settings)}`,
  ]
}

/** Exactly `N passed, N failed, N skipped`. */
export function summaryLine(report: Report): string {
  return `${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped`
}
