import type { Interaction } from '../recording/format.js'
import { referencesIn, resolveInJson, resolveReferences } from '../recording/references.js'
import { ANONYMOUS, INVALID, INVALID_TOKEN } from '../recording/roles.js'
import { curlCommand } from '../client/curl.js'
import { bearer, ContractClient, NO_CREDENTIAL, type ApiAnswer, type ApiRequest } from '../client/http.js'
import { judgeExchange } from '../judge/index.js'
import type { ProfileFile } from '../profile/settings.js'
import { pagingProbes } from './probes.js'
import { replayReport } from './report.js'
import { evidence, type Judged, type ReplayOptions } from './types.js'
import type { Evidence, Report } from '../types.js'

/**
 * Replays each recorded interaction against a real server and judges the answer by its meaning, not its
 * bytes: the status class the mock answered, the schema, filters, paging, totals and team scope (judge.ts,
 * and two paging probes per list), the error body's shape. Fails only where the app that made the request
 * could break; an interaction without an id or token to send is skipped, saying which option gives it.
 */
export async function replay(options: ReplayOptions): Promise<Report> {
  const started = Date.now()
  const client = new ContractClient(options.baseUrl, options.timeoutMs ?? 10_000)
  const created = new Map<string, string>()
  const judged: Judged[] = []
  for (const interaction of options.contract.interactions)
    judged.push(await replayOne(interaction, options, client, created))
  return replayReport(options, judged, started)
}

async function replayOne(
  interaction: Interaction,
  options: ReplayOptions,
  client: ContractClient,
  created: Map<string, string>,
): Promise<Judged> {
  if (interaction.method !== 'GET' && !options.allowWrites)
    return { interaction, skipped: `a ${interaction.method} writes to the server: give --allow-writes to replay it` }
  const resolve = (name: string) => options.references[name] ?? created.get(`${interaction.test}\n${name}`)
  const missing = unresolved(interaction, resolve)
  if (missing.length) return { interaction, skipped: `no id for ${missing.map(optionFor).join(', ')}` }
  const auth = credentialOf(interaction.role, options)
  if (!auth) return { interaction, skipped: `no token for the role ${interaction.role} (--role-token)` }
  const request = requestOf(interaction, resolve, auth)
  const answer = await client.send(request)
  rememberCreated(interaction, answer, created)
  const evidence = [...statusEvidence(interaction, answer), ...judgedEvidence(interaction, answer, options)]
  if (answer.status >= 200 && answer.status < 300)
    evidence.push(...(await pagingProbes(answer, profileFor(interaction, options), client)))
  const curl = curlCommand(client.url(request), request)
  return { interaction, evidence: evidence.map((item) => ({ ...item, curl: item.curl ?? curl })) }
}

const optionFor = (name: string): string =>
  ({ 'team 0': '--team-id', 'policy 0 of team 0': '--policy-id', 'dimension 0': '--dimension-id' })[name] ??
  `--ref "${name}=<id>"`

function unresolved(interaction: Interaction, resolve: (name: string) => string | undefined): string[] {
  const texts = [interaction.path, interaction.query, interaction.rawBody ?? '', JSON.stringify(interaction.body ?? '')]
  return [...new Set(texts.flatMap(referencesIn))].filter((name) => resolve(name) === undefined)
}

function credentialOf(role: string, options: ReplayOptions): ApiRequest['auth'] | undefined {
  if (role === ANONYMOUS) return NO_CREDENTIAL
  if (role === INVALID) return { label: 'an invalid token', header: `Bearer ${INVALID_TOKEN}` }
  const token = options.tokens[role]
  const variable = options.tokenVariables?.[role]
  if (token === undefined) return undefined
  return variable ? bearer(role, token, variable) : { label: role, header: `Bearer ${token}` }
}

function requestOf(
  interaction: Interaction,
  resolve: (name: string) => string | undefined,
  auth: ApiRequest['auth'],
): ApiRequest {
  const query = resolveReferences(interaction.query, resolve)
  const path = resolveReferences(interaction.path, resolve) + (query ? `?${query}` : '')
  const request: ApiRequest = { method: interaction.method as ApiRequest['method'], path, auth }
  if (interaction.body !== undefined) request.json = resolveInJson(interaction.body, resolve)
  if (interaction.rawBody !== undefined) request.rawJson = resolveReferences(interaction.rawBody, resolve)
  return request
}

/** The records a replayed bulk add created, under the names later interactions of its test use for them. */
function rememberCreated(interaction: Interaction, answer: ApiAnswer, created: Map<string, string>): void {
  if (interaction.operation !== 'bulk_add_values' || !Array.isArray(answer.json)) return
  for (const [k, value] of (answer.json as Array<{ id?: unknown }>).entries())
    if (typeof value?.id === 'string')
      created.set(`${interaction.test}\nvalue ${k} of interaction ${interaction.n}`, value.id)
}

/** The app branched on the status class the mock answered (success, refusal, error): the server must agree. */
function statusEvidence(interaction: Interaction, answer: ApiAnswer): Evidence[] {
  const recorded = interaction.response.status
  if (Math.floor(recorded / 100) === Math.floor(answer.status / 100)) return []
  return [evidence(answer, `a ${Math.floor(recorded / 100)}xx, as the mock answered (${recorded})`, `${answer.status}`)]
}

function judgedEvidence(interaction: Interaction, answer: ApiAnswer, options: ReplayOptions): Evidence[] {
  const [path, query = ''] = answer.request.path.split('?', 2) as [string, string?]
  const violations = judgeExchange(
    {
      method: answer.request.method,
      path,
      query,
      requestBody: answer.request.json,
      status: answer.status,
      responseBody: answer.json,
      contentType: answer.headers.get('content-type'),
    },
    { profile: profileFor(interaction, options) },
  )
  return violations.map((violation) => evidence(answer, `the contract (${violation.check})`, violation.message))
}

/** The profile an answer is judged by: the server's where given, else the one the interaction was recorded under. */
const profileFor = (interaction: Interaction, options: ReplayOptions): ProfileFile =>
  options.profile ?? ((interaction.profile ?? options.contract.profile) as ProfileFile)
