import { Faker, en } from '@faker-js/faker'

/** 2026-01-01T00:00:00Z: every seeded timestamp lies before it, so a world never depends on the clock. */
export const REFERENCE_EPOCH = 1_767_225_600

/**
 * A Faker of its own for one part of the world, seeded from the world seed and the part's
 * path. Parts never share a random stream, so the teams, dimensions and policies of a seed
 * stay the same whatever the number of personas.
 */
export function seededFaker(seed: number, ...part: number[]): Faker {
  const faker = new Faker({ locale: [en] })
  faker.seed([seed, ...part])
  faker.setDefaultRefDate(new Date(REFERENCE_EPOCH * 1000))
  return faker
}

/** A timestamp up to `spanDays` before the reference epoch. */
export const pastTimestamp = (faker: Faker, spanDays: number): number =>
  REFERENCE_EPOCH - faker.number.int({ min: 1, max: spanDays * 86_400 })

/** The element at `index`, cycling: seeded data covers every value of an enumeration. */
export const cycle = <T>(values: readonly T[], index: number): T =>
  values[Math.floor(index) % values.length] as T
