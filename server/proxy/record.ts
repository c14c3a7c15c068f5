import { writeFile } from 'node:fs/promises'
import { API_ROUTES } from '../../model/api/routes.js'
import { createRouter } from '../../fastapi/http/router.js'
import { ContractRecorder } from '../../core/journal/recorder.js'
import { World } from '../../model/world.js'
import { contractText, type RecordedContract } from '../../verify/recording/format.js'
import { ANONYMOUS, bearerToken, INVALID, roleOfClaims, type RoleClaims } from '../../verify/recording/roles.js'
import type { Incoming, Outgoing } from './forward.js'
import { decodedBody, headerOf, splitTarget } from './judge.js'

const route = createRouter(API_ROUTES)

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

  constructor(readonly profile: Record<string, unknown>) {}

  record(outgoing: Outgoing, incoming: Incoming, url: URL): void {
    const [path] = splitTarget(outgoing.target)
    const found = route(outgoing.method.toUpperCase(), safeDecode(path))
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
      response: new Response(bodiless ? null : new Uint8Array(decodedBody(incoming)), { status: incoming.status }),
      world: this.#world,
    })
  }

  contract(): Promise<RecordedContract> {
    return this.#recorder.contract(this.profile)
  }

  clear(): void {
    this.#recorder.clear()
  }

  /** Writes the contract as its file holds it. */
  async write(file: string): Promise<void> {
    await writeFile(file, contractText(await this.contract()))
  }

  #roleOf(authorization: string | null, status: number): string {
    const token = bearerToken(authorization)
    if (token === undefined) return ANONYMOUS
    if (status === 401) return INVALID
    const claims = unverifiedClaims(token)
    if (!claims) {
      if (!this.#tokens.has(token)) this.#tokens.set(token, `token ${this.#tokens.size + 1}`)
      return this.#tokens.get(token)!
    }
    const team = claims.team_id?.toLowerCase()
    if (team && !this.#teams.has(team)) this.#teams.set(team, `team ${this.#teams.size}`)
    return roleOfClaims(claims, this.#teams)
  }
}

/** The claims of a JWT read without its signature (only the server can check it; its answer said it took it). */
function unverifiedClaims(token: string): RoleClaims | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
    if (!Array.isArray(claims?.permissions)) return undefined
    return { team_id: claims.team_id ?? null, permissions: claims.permissions, is_super_admin: !!claims.is_super_admin }
  } catch {
    return undefined
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
