import { ContractRecorder } from '../../core/journal/recorder.js'
import { World } from '../../model/world.js'
import { contractText, type RecordedContract } from '../../verify/recording/format.js'
import { matchApiRoute } from '../../verify/judge/index.js'
import { unverifiedClaims } from '../../verify/preconditions.js'
import { ANONYMOUS, bearerToken, INVALID, roleOfClaims, type RoleClaims } from '../../verify/recording/roles.js'
import type { Incoming, Outgoing } from './forward.js'
import { headerOf, splitTarget } from './judge.js'

/**
 * The proxy's recorded contract (core/journal/recorder.ts, `verify --replay` reads it): the distinct API interactions
 * that passed, as the real server answered them. A real server's ids are no records of a mock world, so they
 * stay as they were sent (replay them against the same server, or map them with `--ref`). Tokens become roles:
 * refused ones (401) `invalid`; ones with the mock's claims named by them (`team_reader`, the first team seen
 * being `team 0`); others `token 1`, `token 2`, ... (`--role-token` maps them).
 */
export class ProxyRecording {
  readonly #recorder = new ContractRecorder()
  /** No records: nothing the proxy sees is a reference. */
  readonly #world = new World(0)
  readonly #teams = new Map<string, string>()
  readonly #tokens = new Map<string, string>()

  /** @param onChange hears every exchange recorded (new or a repeat) and every clear */
  constructor(
    readonly profile: Record<string, unknown>,
    private readonly onChange: () => void = () => {},
  ) {}

  /** Records an exchange; `answer` is the answer's body decoded (its content-encoding undone). */
  record(outgoing: Outgoing, incoming: Incoming, answer: Buffer, url: URL): void {
    const [path] = splitTarget(outgoing.target)
    const found = matchApiRoute(outgoing.method, path)
    if (found.kind !== 'match') return
    const authorization = headerOf(outgoing.rawHeaders, 'authorization') ?? null
    const bodiless = [101, 204, 205, 304].includes(incoming.status) || incoming.status < 200
    this.#recorder.record({
      operation: found.route.name,
      method: outgoing.method,
      url,
      body: outgoing.body.byteLength ? new Uint8Array(outgoing.body) : undefined,
      authorization,
      role: async () => this.#roleOf(authorization, incoming.status),
      response: new Response(bodiless ? null : new Uint8Array(answer), { status: incoming.status }),
      world: this.#world,
    })
    this.onChange()
  }

  contract(): Promise<RecordedContract> {
    return this.#recorder.contract(this.profile)
  }

  clear(): void {
    this.#recorder.clear()
    this.onChange()
  }

  /** The contract as its file holds it. */
  async text(): Promise<string> {
    return contractText(await this.contract())
  }

  #roleOf(authorization: string | null, status: number): string {
    const token = bearerToken(authorization)
    if (token === undefined) return ANONYMOUS
    if (status === 401) return INVALID
    const claims = roleClaimsOf(token)
    if (!claims) {
      if (!this.#tokens.has(token)) this.#tokens.set(token, `token ${this.#tokens.size + 1}`)
      return this.#tokens.get(token)!
    }
    const team = claims.team_id?.toLowerCase()
    if (team && !this.#teams.has(team)) this.#teams.set(team, `team ${this.#teams.size}`)
    return roleOfClaims(claims, this.#teams)
  }
}

/** The role claims of a JWT read without its signature (only the server can check it; its answer said it took it). */
function roleClaimsOf(token: string): RoleClaims | undefined {
  const claims = unverifiedClaims(token)
  if (!Array.isArray(claims?.permissions)) return undefined
  const team = claims.team_id as RoleClaims['team_id']
  return { team_id: team ?? null, permissions: claims.permissions, is_super_admin: !!claims.is_super_admin }
}
