import type { Faker } from '@faker-js/faker'
// The English entry point alone: the package's main one loads every locale, which each process
// would pay for in memory and start-up time, and the mock speaks English only.
import { faker as englishFaker } from '@faker-js/faker/locale/en'

/** Faker's class and its English definitions, as the English entry point built them. */
const EnglishFaker = englishFaker.constructor as typeof Faker
const english = englishFaker.rawDefinitions

/** 2026-01-01T00:00:00Z: every seeded timestamp lies before it, so a world never depends on the clock. */
export const REFERENCE_EPOCH = 1_767_225_600

/**
 * A Faker of its own for one part of the world, seeded from the world seed and the part's
 * path. Parts never share a random stream, so the teams, dimensions and policies of a seed
 * stay the same whatever the number of personas.
 */
export function seededFaker(seed: number, ...part: number[]): Faker {
  const faker = new EnglishFaker({ locale: english })
  faker.seed([seed, ...part])
  faker.setDefaultRefDate(new Date(REFERENCE_EPOCH * 1000))
  return faker
}

/** A timestamp up to `spanDays` before the reference epoch. */
export const pastTimestamp = (faker: Faker, spanDays: number): number =>
  REFERENCE_EPOCH - faker.number.int({ min: 1, max: spanDays * 86_400 })

/** The element at `index`, cycling: seeded data covers every value of an enumeration. */
export const cycle = <T>(values: readonly T[], index: number): T => values[Math.floor(index) % values.length] as T

const UUID_TEMPLATE = 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'
const VARIANT_POSITION = UUID_TEMPLATE.indexOf('y')

/**
 * `seededUuid(faker)`, drawing the same numbers in the same order (every `x` from 0 to 15,
 * then the `y` from 8 to 11), so a seed gives the same ids. Faker builds it with two
 * `replaceAll` callbacks, which V8 stops optimising once other code has called `replaceAll`:
 * seeding a large world would then slow down markedly.
 */
export function seededUuid(faker: Faker): string {
  const digits = [...UUID_TEMPLATE].map((char) => (char === 'x' ? faker.number.int(15).toString(16) : char))
  digits[VARIANT_POSITION] = faker.number.int({ min: 8, max: 11 }).toString(16)
  // One join, one flat string: `replace` would leave a rope of three parts per id.
  return digits.join('')
}
