import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { templateOf, type ErrorSituation, type TextParts } from './profile/error-texts.js'
import {
  bearer,
  ContractClient,
  describeAnswer,
  requestLine,
  type ApiAnswer,
  type ApiRequest,
  type Credential,
} from './client/http.js'
import type { SettingName } from './profile/settings.js'
import type { DetectedSetting, VerifyOptions } from './types.js'
import { DEFAULT_DEADLINE_MS, DEFAULT_TIMEOUT_MS } from './timeouts.js'

/** The ids a run works with: given, or discovered. */
export interface KnownIds {
  teamId?: string
  policyId?: string
  dimensionId?: string
  otherPolicyId?: string
  otherTeamId?: string
}

/** The environment variables a report's curl commands read the tokens from (the command's own). */
export const TOKEN_VARIABLES = {
  token: 'AGENT_CONSOLE_VERIFY_TOKEN',
  admin: 'AGENT_CONSOLE_VERIFY_ADMIN_TOKEN',
  noPermission: 'AGENT_CONSOLE_VERIFY_NO_PERM_TOKEN',
} as const

/** What checks saw that other checks (the profile ones) read later. */
export interface Facts {
  missingCredentialsStatus?: DetectedSetting
  bulkAddStatus?: DetectedSetting
  bulkDuplicates?: DetectedSetting
  uuidErrorMessage?: { message: string; source: string }
  /** Every 422 body seen: the entries tell the pydantic generation. */
  validationErrors: Array<{ entries: unknown[]; source: string }>
  /** The `detail` text (as a template) and status the server gave in each situation. */
  errorTexts: Map<ErrorSituation, { detail: string; status: number; source: string }>
  /** Which defaults a value sent alone got (bulk.defaults). */
  bulkDefaults?: { summary: string; source: string }
  /** Why `--other-policy-id` could not be confirmed a policy: the admin token did not find it either. */
  otherPolicyUnconfirmed?: string
}

/** A 5xx answer to a request of the run, and who sent it: `errors.server-error` fails each one. */
export interface ServerErrorAnswer {
  request: ApiRequest
  status: number
  /** The `Retry-After` header, when the answer had one (a rate limiter's or a maintenance 503). */
  retryAfter?: string
  /** The status and the start of the body, as reports show an answer. */
  answer: string
  /** The check or phase that sent it, and the shared probe when a memoised one did: `filters.intents (probe "personas")`. */
  sentBy: string
}

/** Who is sending: a check's id or a phase of the run, and the shared probe it is computing, if any. */
interface Sender {
  by: string
  probe?: string
}

/** What the profile checks found: the settings seen, those that could not be, and the rest observed. */
export interface ProfileFindings {
  detected: Partial<Record<SettingName, DetectedSetting>>
  undetermined: Partial<Record<SettingName, string>>
  observations: Record<string, string>
}

/** The credentials of a run, each labelled by its role (reports never show a token). */
export interface Credentials {
  token: Credential
  admin?: Credential
  noPermission?: Credential
}

/**
 * Everything the checks of one run share: the client, the credentials, the ids, the facts,
 * and answers worth computing once (a crawl, the server's OpenAPI document).
 */
export class VerifyContext {
  readonly client: ContractClient
  readonly credentials: Credentials
  readonly ids: KnownIds
  readonly facts: Facts = { errorTexts: new Map(), validationErrors: [] }
  readonly profile: ProfileFindings = { detected: {}, undetermined: {}, observations: {} }
  /** Distinguishes the values this run adds from every other run's. */
  readonly runId = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
  /** Every 5xx the server answered this run, in the order they came. */
  readonly serverErrors: ServerErrorAnswer[] = []
  readonly #deadline: number
  readonly #memo = new Map<string, Promise<unknown>>()
  // Async-local, not a field: a shared probe's requests run inside whichever check first asked for it.
  readonly #sender = new AsyncLocalStorage<Sender>()

  constructor(readonly options: VerifyOptions) {
    this.client = new ContractClient(options.baseUrl, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
    this.credentials = {
      token: bearer('token', options.token, TOKEN_VARIABLES.token),
      admin: options.adminToken ? bearer('admin token', options.adminToken, TOKEN_VARIABLES.admin) : undefined,
      noPermission: options.noPermToken
        ? bearer('no-permission token', options.noPermToken, TOKEN_VARIABLES.noPermission)
        : undefined,
    }
    this.ids = {
      teamId: options.teamId,
      policyId: options.policyId,
      dimensionId: options.dimensionId,
      otherPolicyId: options.otherPolicyId,
      otherTeamId: options.otherTeamId,
    }
    this.#deadline = Date.now() + (options.deadlineMs ?? DEFAULT_DEADLINE_MS)
  }

  /** Sends a request; a 5xx answer is also recorded, with who sent it, whatever the sender makes of it. */
  async send(request: ApiRequest): Promise<ApiAnswer> {
    const answer = await this.client.send(request)
    if (answer.status >= 500) this.serverErrors.push(this.#serverError(answer))
    return answer
  }

  /** Runs `work` as `by` (a check's id, or a phase such as the preconditions): the requests it sends are its. */
  sendingAs<T>(by: string, work: () => Promise<T>): Promise<T> {
    return this.#sender.run({ by }, work)
  }

  /** Computes a value once per run (concurrent callers share the promise). */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let value = this.#memo.get(key) as Promise<T> | undefined
    if (!value) {
      const by = this.#sender.getStore()?.by ?? 'verify'
      this.#memo.set(key, (value = this.#sender.run({ by, probe: key }, compute)))
    }
    return value
  }

  get pastDeadline(): boolean {
    return Date.now() > this.#deadline
  }

  /** A value name no other run uses: `agent-console-mock-verify-<run id>-<name>`. */
  uniqueValue(name: string): string {
    return `agent-console-mock-verify-${this.runId}-${name}`
  }

  #serverError(answer: ApiAnswer): ServerErrorAnswer {
    const sender = this.#sender.getStore()
    const sentBy = sender ? `${sender.by}${sender.probe ? ` (probe "${sender.probe}")` : ''}` : 'verify'
    const retryAfter = answer.headers.get('retry-after') ?? undefined
    const { request, status } = answer
    return { request, status, answer: describeAnswer(answer), sentBy, ...(retryAfter ? { retryAfter } : {}) }
  }

  /** Records the `detail` text of an error answer (the first one per situation), for the error texts. */
  recordErrorText(situation: ErrorSituation, answer: ApiAnswer, parts?: TextParts): void {
    const detail = (answer.json as { detail?: unknown } | undefined)?.detail
    if (typeof detail !== 'string' || this.facts.errorTexts.has(situation)) return
    this.facts.errorTexts.set(situation, {
      detail: templateOf(detail, parts),
      status: answer.status,
      source: requestLine(answer.request),
    })
  }

  /** Records the entries of a 422 body, for the pydantic generation. */
  recordValidationError(answer: ApiAnswer): void {
    const detail = (answer.json as { detail?: unknown } | undefined)?.detail
    if (answer.status === 422 && Array.isArray(detail))
      this.facts.validationErrors.push({ entries: detail, source: requestLine(answer.request) })
  }
}
