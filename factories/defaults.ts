import type { Faker } from '@faker-js/faker'
import type { z } from 'zod'
import { successor } from '../model/bulk-add.js'
import { larger } from '../model/dimension-values.js'
import type { DemographicValue, PolicyRule } from '../model/schemas.js'
import type { RECORD_SCHEMAS, World } from '../model/world.js'
import { seededUuid } from './random.js'

export type RecordCollection = keyof typeof RECORD_SCHEMAS
export type StoredRecordOf<Name extends RecordCollection> = z.output<(typeof RECORD_SCHEMAS)[Name]>
type InputOf<Name extends RecordCollection> = z.input<(typeof RECORD_SCHEMAS)[Name]>

/** Fields to set on a built record; nested objects may be given in part (`{ consequence: { severity: 'high' } }`). */
export type Overrides<Name extends RecordCollection> = DeepPartial<InputOf<Name>>
type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends Record<string, unknown>
    ? { [Key in keyof T]?: DeepPartial<T[Key]> }
    : T

/** A field the defaults cannot be made for (a reference with nothing to refer to). */
export class MissingReference extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message)
  }
}

/** What the defaults of one record are made from. */
export interface DefaultsContext {
  readonly world: World
  /** The record's seeded id. */
  readonly id: string
  /** A random stream of the record's own (seeded by the world's seed and the record's number). */
  readonly faker: Faker
  /** Now, in whole Unix seconds (the instance's clock). */
  readonly now: number
  /** Records of the same collection built earlier in the same batch, not yet stored. */
  readonly pending: readonly object[]
}

type Defaults<Name extends RecordCollection> = (
  context: DefaultsContext,
  overrides: Overrides<Name>,
) => Record<string, unknown>

/**
 * The fields a record gets unless overridden, for each collection: the description's defaults
 * (the schemas' own, applied when the record is parsed), seeded text, timestamps from the
 * clock, and references to the first team, dimension or policy of the world.
 */
export const DEFAULTS: { [Name in RecordCollection]: Defaults<Name> } = {
  teams: ({ id, faker, now }) => ({ id, name: `${faker.company.name()} Team`, created_at: now }),
  personas: ({ id, world, faker, now }, overrides) => ({
    id,
    team_id: overrides.team_id ?? firstId(world.teams.all(), 'team_id', 'team'),
    name: faker.person.fullName(),
    role: faker.person.jobTitle(),
    created_at: now,
    updated_at: overrides.created_at ?? now,
    created_by: seededUuid(faker),
  }),
  dimensions: ({ id, faker, now }) => ({ id, name: capitalise(faker.word.noun()), created_at: now }),
  values: (context, overrides) => valueDefaults(context, overrides),
  policies: ({ id, world, faker, now }, overrides) => ({
    id,
    team_id: overrides.team_id ?? firstId(world.teams.all(), 'team_id', 'team'),
    name: `${capitalise(faker.word.adjective())} ${faker.word.noun()} policy`,
    created_at: now,
    updated_at: overrides.created_at ?? now,
  }),
  rules: (context, overrides) => ruleDefaults(context, overrides),
}

/** A value of the first dimension, a word the dimension does not have yet, sorted after the dimension's last. */
function valueDefaults({ id, world, faker, now, pending }: DefaultsContext, overrides: Overrides<'values'>) {
  const dimensionId = overrides.dimension_id ?? firstId(world.dimensions.all(), 'dimension_id', 'dimension')
  const stored = world.valuesByDimension().get(dimensionId)
  const siblings = (pending as DemographicValue[]).filter((value) => value.dimension_id === dimensionId)
  const taken = (value: string) => stored?.names.has(value) || siblings.some((sibling) => sibling.value === value)
  let value = overrides.value ?? faker.word.noun()
  for (let n = 2; overrides.value === undefined && taken(value); n++) value = `${faker.word.noun()}-${n}`
  const largest = siblings.reduce((most, sibling) => larger(most, sibling.sort_order), stored?.largest)
  return {
    id,
    dimension_id: dimensionId,
    value,
    created_at: now,
    display_name: value,
    value_metadata: {},
    sort_order: successor(largest),
  }
}

/** A draft prohibition of the first policy, extracted by hand, with the next free `RULE-nnn` id of its policy. */
function ruleDefaults({ id, world, faker, now, pending }: DefaultsContext, overrides: Overrides<'rules'>) {
  const policyId = overrides.policy_id ?? firstId(world.policies.all(), 'policy_id', 'policy')
  const taken = new Set(
    [...(world.rulesByPolicy().get(policyId) ?? []), ...(pending as PolicyRule[])]
      .filter((rule) => rule.policy_id === policyId)
      .map((rule) => rule.rule_id),
  )
  let number = taken.size + 1
  while (taken.has(ruleId(number))) number++
  const sentence = `The agent must not share personal data ${faker.lorem.words(3)}.`
  const reviewed = overrides.status !== undefined && overrides.status !== 'draft'
  return {
    id,
    policy_id: policyId,
    rule_id: ruleId(number),
    rule_type: 'prohibition',
    action: 'share_personal_data',
    consequence: { action: 'block', severity: 'medium', message: faker.lorem.sentence({ min: 4, max: 10 }) },
    natural_language: sentence,
    created_at: now,
    updated_at: overrides.created_at ?? now,
    target: 'customer_pii',
    assignee: 'agent',
    constraints: [],
    constraint_logic: 'AND',
    provenance: {
      extracted_by: 'manual',
      model_used: '',
      confidence_score: 1,
      source_location: {
        section: '1. Scope',
        paragraph: 1,
        char_start: 0,
        char_end: [...sentence].length,
        source_text: sentence,
      },
    },
    category: 'custom',
    tags: [],
    status: 'draft',
    // decisions.md: the review fields are null while a draft; a reviewed rule was reviewed by someone, now.
    reviewed_by: reviewed ? seededUuid(faker) : null,
    reviewed_at: reviewed ? now : null,
  }
}

const ruleId = (number: number) => `RULE-${String(number).padStart(3, '0')}`

function firstId(records: ReadonlyArray<{ id: string }>, field: string, kind: string): string {
  const first = records[0]
  if (!first)
    throw new MissingReference(field, `the world has no ${kind} to default to: create one first, or give ${field}`)
  return first.id
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)
