import type { Team } from '../model/schemas.js'
import { pastTimestamp, seededFaker, seededUuid } from './random.js'

const TEAM_NAMES = ['Acme Support Agents', 'Globex Research', 'Initech Sandbox']

/** The seeded teams. The last one is left without personas on purpose. */
export function buildTeams(seed: number, count = TEAM_NAMES.length): Team[] {
  const faker = seededFaker(seed, 1)
  return Array.from({ length: count }, (_, index) => ({
    id: seededUuid(faker),
    name: TEAM_NAMES[index] ?? `${faker.company.name()} Team`,
    created_at: pastTimestamp(faker, 900),
  }))
}
