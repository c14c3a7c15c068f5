import type { Report } from '../types.js'

/** The whole report as JSON, for tools. */
export function formatJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`
}
