import { randomUUID } from 'node:crypto'
import { bulkAdd, listPersonas } from './client/api.js'
import type { VerifyContext } from './context.js'
import type { ApiAnswer, Credential } from './client/http.js'
import { tamperedToken } from './client/forged-tokens.js'

/**
 * What must hold before any verdict: the server accepts the tokens it was given. A token it
 * rejects (expired, signed with another secret, scoped to another team) would turn every check
 * into a false failure, so the run stops with one sentence instead (the command exits 2).
 */
export class PreconditionError extends Error {
  override readonly name = 'PreconditionError'
}

/** The claims of a JWT, read without checking its signature: only to explain a refusal or name a role. */
export interface UnverifiedClaims {
  team_id?: unknown
  exp?: unknown
  is_super_admin?: unknown
  permissions?: unknown
}

export function unverifiedClaims(token: string): UnverifiedClaims | undefined {
  const payload = token.split('.')[1]
  if (!payload) return undefined
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    return typeof claims === 'object' && claims !== null ? (claims as UnverifiedClaims) : undefined
  } catch {
    return undefined
  }
}

/** Asks once with each token given; throws PreconditionError when the server rejects one. */
export async function checkPreconditions(ctx: VerifyContext): Promise<void> {
  const { options, credentials, ids } = ctx
  const reader = await ctx.send(listPersonas(ctx, { limit: 1 }))
  if (reader.status === 401) throw rejected('--token', options.token, reader)
  const refused = reader.status === 403 || (reader.status === 404 && detailOf(reader) !== 'Not Found')
  if (refused) {
    const team = ids.teamId ? ` for team ${ids.teamId}` : ''
    const scoped = unverifiedClaims(options.token)?.team_id
    const hint =
      ids.teamId && typeof scoped === 'string' && scoped !== ids.teamId ? `: the token is scoped to team ${scoped}` : ''
    const needed = `a token${ids.teamId ? ' of that team' : ''} with persona:read and policy:read`
    throw new PreconditionError(
      `The server refuses --token${team} (${answerText(reader)})${hint}; verify needs ${needed}.`,
    )
  }
  if (credentials.admin && options.adminToken) await checkAdmin(ctx, credentials.admin, options.adminToken)
  if (credentials.noPermission && options.noPermToken) await checkNoPermission(ctx, options.noPermToken)
}

/**
 * The no-permission token must be refused for its missing permission, not rejected as a token. The statuses are "not
 * shown": a server may refuse a missing permission with 401 too. Only a 401 that a forged copy of the token (its
 * signature changed) gets word for word shows the token itself is rejected.
 */
async function checkNoPermission(ctx: VerifyContext, token: string): Promise<void> {
  const answer = await ctx.send(listPersonas(ctx, { limit: 1 }, ctx.credentials.noPermission))
  if (answer.status !== 401) return
  const forged = { label: 'the no-permission token, forged', header: `Bearer ${tamperedToken(token)}` }
  const refusedAsForged = await ctx.send(listPersonas(ctx, { limit: 1 }, forged))
  if (refusedAsForged.status === 401 && refusedAsForged.text === answer.text)
    throw rejected('--no-perm-token', token, answer)
}

/**
 * A bulk add to `--dimension-id`, or else to a dimension that does not exist: a super admin gets past the refusal.
 * Nothing is written: a run with writes allowed adds an empty list; a read-only run sends a body validation must
 * refuse (a string for the list), since a server that creates a dimension on its first bulk add could take even an
 * empty list as a write. FastAPI checks a dependency's permission before it validates the body, so a 403 still tells
 * a token that is not a super admin; a server may also answer 403 for a dimension it does not know, which
 * `--dimension-id` rules out.
 */
const NOT_A_LIST = { values: 'not a list' }

async function checkAdmin(ctx: VerifyContext, admin: Credential, token: string): Promise<void> {
  const body = ctx.options.allowWrites ? { values: [] } : NOT_A_LIST
  const dimensionId = ctx.ids.dimensionId
  const answer = await ctx.send(bulkAdd(dimensionId ?? randomUUID(), body, admin))
  if (answer.status === 401) throw rejected('--admin-token', token, answer)
  const unknown = dimensionId ? '' : ' of a dimension that does not exist; pass --dimension-id if that is why'
  if (answer.status === 403)
    throw new PreconditionError(
      `The server does not take --admin-token as a super admin (${answerText(answer)} to a bulk add${unknown}).`,
    )
}

function rejected(option: string, token: string, answer: ApiAnswer): PreconditionError {
  const exp = unverifiedClaims(token)?.exp
  const why =
    typeof exp === 'number' && exp * 1000 < Date.now()
      ? `it expired on ${new Date(exp * 1000).toISOString()}`
      : unverifiedClaims(token)
        ? "it is probably signed with another secret than the server's"
        : 'it is not a JWT'
  return new PreconditionError(`The server rejects ${option} (${answerText(answer)}): ${why}.`)
}

function detailOf(answer: ApiAnswer): unknown {
  return (answer.json as { detail?: unknown } | undefined)?.detail
}

/** A status and its detail text, for a precondition's sentence: `404 "Policy not found"`. */
export function answerText(answer: ApiAnswer): string {
  const detail = detailOf(answer)
  return `${answer.status}${typeof detail === 'string' ? ` ${JSON.stringify(detail)}` : ''}`
}
