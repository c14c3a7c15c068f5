import { expect, it } from 'vitest'
import { ALL_CHECKS } from '../../verify/index.js'
import { BROKEN_ANSWERS, BROKEN_VARIANTS } from './broken-variants.js'
import { itCatchesEach } from './support/catches.js'

/** The variants of what the server answers; broken-requests.test.ts runs the others, so that two workers share them. */
itCatchesEach(BROKEN_ANSWERS)

it('has a variant that breaks each check able to fail (only contract checks can; dialect and choice ones report)', () => {
  const caught = new Set(BROKEN_VARIANTS.flatMap((variant) => [variant.caughtBy, ...(variant.alsoFails ?? [])]))
  const judging = ALL_CHECKS.filter((check) => check.kind === 'contract').map((check) => check.id)
  expect(
    judging.filter((id) => id.startsWith('profile.')),
    'the profile checks never judge',
  ).toEqual([])
  expect(
    judging.filter((id) => !caught.has(id)),
    'checks no variant breaks',
  ).toEqual([])
  expect(
    new Set(BROKEN_VARIANTS.map((variant) => variant.caughtBy)).size,
    "each judging check is some variant's intended catch",
  ).toBe(judging.length)
})
