/** The formats `--format` takes (a module of their own: `verify --help` shows them and loads no reporter). */
export type ReportFormat = 'pretty' | 'json' | 'junit' | 'markdown'
export const REPORT_FORMATS: readonly ReportFormat[] = ['pretty', 'json', 'junit', 'markdown']
