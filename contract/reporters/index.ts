import type { Report } from '../types.js'
import { formatJson } from './json.js'
import { formatJunit } from './junit.js'
import { formatPretty } from './pretty.js'

/** The formats `--format` takes. */
export type ReportFormat = 'pretty' | 'json' | 'junit'
export const REPORT_FORMATS: readonly ReportFormat[] = ['pretty', 'json', 'junit']

/** A report in one of the three formats (`color` only matters to `pretty`). */
export function formatReport(report: Report, format: ReportFormat, options: { color?: boolean } = {}): string {
  if (format === 'json') return formatJson(report)
  if (format === 'junit') return formatJunit(report)
  return formatPretty(report, options)
}

export { formatJson, formatJunit, formatPretty }
export { summaryLine } from './pretty.js'
