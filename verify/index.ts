/**
 * Contract verification (`agent-console-mock/contract`): holds a real server to the contract the
 * mock keeps, reports what differs, and detects the profile that aligns the mock with the server.
 */
export { verify } from './runner.js'
export { registerVerifyCommand, type VerifyCommandIo } from './command.js'
export { ALL_CHECKS } from './checks/index.js'
export type { Check, CheckScope, Finding, Need } from './checks/check.js'
export {
  formatJson,
  formatJunit,
  formatMarkdown,
  formatPretty,
  formatReport,
  summaryLine,
  REPORT_FORMATS,
  type ReportFormat,
} from './reporters/index.js'
export { PreconditionError } from './preconditions.js'
export { curlCommand } from './client/curl.js'
export { judgeExchange, type JudgedExchange, type JudgeOptions, type Violation } from './judge/index.js'
export { LearnedSettings, type ProfileFile } from './profile/settings.js'
export {
  ContractClient,
  RequestTimeoutError,
  ServerUnreachableError,
  type ApiAnswer,
  type ApiRequest,
  type Credential,
} from './client/http.js'
export { DEFAULT_DEADLINE_MS, DEFAULT_TIMEOUT_MS } from './timeouts.js'
export type {
  CheckGroup,
  CheckKind,
  CheckResult,
  CheckStatus,
  DetectedProfile,
  DetectedSetting,
  Evidence,
  Report,
  ReportSummary,
  VerifyOptions,
} from './types.js'
export { replay } from './replay/index.js'
export type { ReplayOptions } from './replay/types.js'
export { parseContract, mergeContracts, type RecordedContract, type Interaction } from './recording/format.js'
