import type { Report } from '../types.js'
import { formatJson } from './json.js'
import { formatJunit } from './junit.js'
import { formatMarkdown } from './markdown.js'
import { formatPretty } from './pretty.js'

import type { ReportFormat } from './formats.js'

export { REPORT_FORMATS, type ReportFormat } from './formats.js'

/** A report in one of the formats (`color` only matters to `pretty`). */
export function formatReport(report: Report, format: ReportFormat, options: { color?: boolean } = {}): string {
  if (format === 'json') return formatJson(report)
  if (format === 'junit') return formatJunit(report)
  if (format === 'markdown') return formatMarkdown(report)
  return formatPretty(report, options)
}

export { formatJson, formatJunit, formatMarkdown, formatPretty }
export { summaryLine } from './pretty.js'
