import type { Faker } from '@faker-js/faker'
import { DataAccessScope, Intent, KnowledgeLevel, PrivilegeLevel, SkillLevel } from '../model/enums.js'
import type { Persona, Team } from '../model/schemas.js'
import { cycle, pastTimestamp, seededFaker, seededUuid } from './random.js'

const PRESET_CATEGORIES = ['customer', 'employee', 'attacker', 'auditor', 'partner']
const LANGUAGES = ['en', 'en', 'en', 'de', 'fr', 'es', 'ja']
/** Names outside ASCII, so that UTF-8 output, lengths and case-insensitive search are exercised. */
const INTERNATIONAL_NAMES = [
  'Zoë Ångström',
  'José Núñez',
  'Søren Ødegård',
  'Łukasz Żółć',
  '李雷',
  'Ιωάννα Παππά',
  'Ünal Çelik',
]
const TOOLS = ['search', 'crm_lookup', 'refund', 'email', 'sql_query', 'file_read', 'web_browse']
const ACTIONS = ['delete_account', 'export_data', 'change_billing', 'escalate_privileges', 'bulk_email']
/** Shared, not built per persona: 48 files, one string each. */
const ICON_FILENAMES = Array.from({ length: 48 }, (_, index) => `persona-${String(index).padStart(2, '0')}.svg`)

/**
 * Text drawn once per team and then picked from: Faker's template-based generators (job
 * titles, sentences) cost far more than a pick, too much for a large team, while a pick is
 * one random number. Pools of a few hundred keep the text varied.
 */
interface TextPools {
  firstNames: string[]
  lastNames: string[]
  jobTitles: string[]
  jobTypes: string[]
  descriptors: string[]
  sentences: string[]
  words: string[]
}

function drawPools(faker: Faker): TextPools {
  const draw = (count: number, make: () => string) => Array.from({ length: count }, make)
  return {
    firstNames: draw(300, () => faker.person.firstName()),
    lastNames: draw(300, () => faker.person.lastName()),
    jobTitles: draw(250, () => faker.person.jobTitle()),
    jobTypes: draw(40, () => faker.person.jobType()),
    descriptors: draw(40, () => faker.person.jobDescriptor()),
    sentences: draw(400, () => faker.lorem.sentence({ min: 6, max: 14 })),
    words: draw(300, () => faker.lorem.word()),
  }
}

/**
 * Persona `index` of a team. Enumerations are cycled (intent every persona, knowledge every
 * 4th, skill every 16th) so that any 64 personas cover every combination; every 5th is a
 * preset; access_permissions rotate through a structured object, a free-form object and null.
 */
function buildPersona(faker: Faker, pools: TextPools, team: Team, index: number, authors: string[]): Persona {
  const pick = (pool: readonly string[]) => pool[faker.number.int(pool.length - 1)] as string
  const intent = cycle(Intent.options, index)
  const isPreset = index % 5 === 0
  const name = isPreset
    ? words(capitalise(intent), pick(pools.jobTypes))
    : index % 7 === 3
      ? cycle(INTERNATIONAL_NAMES, index)
      : words(pick(pools.firstNames), pick(pools.lastNames))
  const createdAt = pastTimestamp(faker, 700)
  return {
    id: seededUuid(faker),
    team_id: team.id,
    name,
    description: index % 6 === 5 ? null : pick(pools.sentences),
    role: pick(pools.jobTitles),
    role_description:
      index % 4 === 2 ? null : words(pick(pools.descriptors), ...Array.from({ length: 5 }, () => pick(pools.words))),
    knowledge_level: cycle(KnowledgeLevel.options, Math.floor(index / 4)),
    skill_level: cycle(SkillLevel.options, Math.floor(index / 16)),
    intent,
    language: cycle(LANGUAGES, index),
    access_permissions: accessPermissions(faker, pools, index),
    is_preset: isPreset,
    preset_category: isPreset ? cycle(PRESET_CATEGORIES, index / 5) : null,
    tags:
      index % 3 === 1
        ? null
        : faker.helpers.arrayElements(['vip', 'new', 'churn-risk', 'b2b', 'mobile', 'beta'], { min: 0, max: 3 }),
    icon_filename: index % 2 === 0 ? cycle(ICON_FILENAMES, index) : null,
    created_at: createdAt,
    updated_at: createdAt + faker.number.int({ min: 0, max: 30 * 86_400 }),
    created_by: faker.helpers.arrayElement(authors),
  }
}

function accessPermissions(faker: Faker, pools: TextPools, index: number): Persona['access_permissions'] {
  if (index % 3 === 2) return null
  if (index % 3 === 1) {
    const notes = Array.from({ length: 4 }, () => pools.words[faker.number.int(pools.words.length - 1)]).join(' ')
    return {
      scopes: faker.helpers.arrayElements(['read:orders', 'write:tickets', 'admin:users'], { min: 1, max: 3 }),
      notes,
    }
  }
  return {
    privilege_level: cycle(PrivilegeLevel.options, index / 3),
    allowed_agents: index % 2 === 0 ? ['support-bot', 'billing-bot'] : null,
    allowed_tools: faker.helpers.arrayElements(TOOLS, { min: 1, max: 4 }),
    restricted_actions: index % 4 === 0 ? null : faker.helpers.arrayElements(ACTIONS, { min: 1, max: 2 }),
    data_access_scope: index % 5 === 4 ? null : cycle(DataAccessScope.options, index),
  }
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/**
 * Words joined by spaces into one flat string. A template literal would make a rope (a
 * string pointing at its parts) plus a copy of its first part: three strings where one
 * does, for every persona of the world.
 */
const words = (...parts: string[]): string => parts.join(' ')

/**
 * The personas of one team, from a random stream of their own (the team's position), drawn one
 * at a time as they are taken (seeding stores them in slices and yields to the event loop between).
 */
export function* buildTeamPersonas(seed: number, team: Team, teamIndex: number, count: number): Generator<Persona> {
  const faker = seededFaker(seed, 2, teamIndex)
  const authors = Array.from({ length: 4 }, () => seededUuid(faker))
  const pools = drawPools(faker)
  for (let index = 0; index < count; index++) yield buildPersona(faker, pools, team, index, authors)
}
