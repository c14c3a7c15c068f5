import type { World } from '../../model/world.js'
import { type Base, baseOf, type WorldOrigin } from './bases.js'

/** Snapshot names: what a session key may be, so that one can name the other. */
const SNAPSHOT_NAME = /^[A-Za-z0-9._~-]{1,128}$/

/** A world kept as it was when taken: restored, or forked into a new session, as often as wanted. */
export interface Snapshot {
  readonly name: string
  readonly takenAt: Date
  /** The world kept, never written again, with its fixtures: what restores fork. */
  readonly base: Base
}

/** Thrown for a name that cannot be a snapshot's, or that names none. */
export class SnapshotError extends Error {}

/**
 * The named snapshots of a mock, shared by all its worlds (a server's sessions too), so a
 * snapshot taken in one session can start another (`X-Mock-Session-From`). Taking one costs
 * what the world made its own since it was forked (references, not records): the rest is
 * its seeded base, shared.
 */
export class Snapshots {
  readonly #byName = new Map<string, Snapshot>()

  /**
   * Keeps `world` as it is now under `name` (replacing a snapshot of that name).
   * @throws SnapshotError for a name that is not 1 to 128 of A-Z a-z 0-9 . _ ~ -
   */
  async take(name: string, world: World, options: WorldOrigin): Promise<Snapshot> {
    checkName(name)
    const snapshot = { name, takenAt: new Date(), base: baseOf(await world.snapshot(), options) }
    this.#byName.set(name, snapshot)
    return snapshot
  }

  /** @throws SnapshotError when there is no snapshot of that name */
  get(name: string): Snapshot {
    const snapshot = this.#byName.get(name)
    if (!snapshot) throw new SnapshotError(unknown(name, this.names()))
    return snapshot
  }

  /** @returns whether there was a snapshot of that name */
  delete(name: string): boolean {
    return this.#byName.delete(name)
  }

  list(): Snapshot[] {
    return [...this.#byName.values()]
  }

  names(): string[] {
    return [...this.#byName.keys()]
  }

  /** The worlds kept: what a memory budget counts. */
  worlds(): World[] {
    return this.list().map((snapshot) => snapshot.base.world)
  }
}

export function checkName(name: string): void {
  if (!SNAPSHOT_NAME.test(name))
    throw new SnapshotError('A snapshot name is 1 to 128 characters among A-Z a-z 0-9 . _ ~ -')
}

/** Names an unknown snapshot's listing shows at most: thousands would make a page of a 404. */
const NAMES_SHOWN = 20

/** Why `name` names no snapshot, and which there are; each host adds how to take one (its own API's way). */
function unknown(name: string, names: string[]): string {
  const shown = names.slice(-NAMES_SHOWN).join(', ')
  const more = names.length > NAMES_SHOWN ? ` (the newest ${NAMES_SHOWN} of ${names.length})` : ''
  return `No snapshot named "${name}"${names.length ? `; there are: ${shown}${more}` : ''}`
}

/** Whether a snapshot error says that a name names none (not that the name is not a valid one). */
export const namesNoSnapshot = (error: SnapshotError): boolean => error.message.startsWith('No snapshot named')

/** How to take a snapshot over HTTP, for an answer that names none. */
export const TAKE_ONE_OVER_HTTP = 'take one with POST /__mock/snapshots {"name": ...}'
