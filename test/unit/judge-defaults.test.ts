/**
 * The passive judge on personas whose optional fields are left out (`response_model_exclude_unset=True`): a field
 * left out holds the default the description's Persona table gives (intent benign, is_preset false), and a record
 * that has the field with another value still breaks the filter.
 */
import { expect, it } from 'vitest'
import { judgeExchange } from '../../verify/index.js'
import { personaField } from '../../verify/schema/persona-defaults.js'
import { checksOf, corrupt, exchange, teams } from './support/judge.js'

const personas = (query: string) => exchange('GET', `/v1/personas/?team_id=${teams[0]!.id}&${query}`)

type Persona = Record<string, unknown>
/** The description's defaults, as a server using `response_model_exclude_unset` leaves them out. */
const DESCRIBED_DEFAULTS: Persona = {
  knowledge_level: 'intermediate',
  skill_level: 'competent',
  intent: 'benign',
  language: 'en',
  is_preset: false,
}
const withoutUnset = (body: { results: Persona[] }) => ({
  ...body,
  results: body.results.map((persona) =>
    Object.fromEntries(
      Object.entries(persona).filter(([name, value]) => value !== null && DESCRIBED_DEFAULTS[name] !== value),
    ),
  ),
})

it("reads every default of the description's Persona table, and null for an optional field without one", () => {
  for (const [field, value] of Object.entries(DESCRIBED_DEFAULTS)) expect(personaField({}, field), field).toBe(value)
  for (const field of ['description', 'role_description', 'access_permissions', 'preset_category', 'tags'])
    expect(personaField({}, field), field).toBeNull()
  expect(personaField({ intent: 'curious' }, 'intent')).toBe('curious')
  expect(personaField({ intent: null }, 'intent'), 'a field written null is not left out').toBeNull()
})

it('judges intents=benign and is_preset=false by the defaults where the answer leaves the fields out', async () => {
  const answers = await Promise.all([
    personas('intents=benign&limit=100'),
    personas('intents=benign&intents=curious&limit=100'),
    personas('is_preset=false&limit=100'),
    personas('is_preset=false&intents=benign&limit=100'),
  ])
  for (const answer of answers) {
    const unset = corrupt(answer, withoutUnset)
    const { results } = unset.responseBody as { results: Persona[] }
    const leftOut = results.filter((persona) => !('intent' in persona) || !('is_preset' in persona))
    expect(leftOut.length, `${answer.query}: records that leave a filtered field out`).toBeGreaterThan(0)
    expect(judgeExchange(unset), answer.query).toEqual([])
  }
})

it('flags a persona whose intent or is_preset another value, among personas that leave theirs out', async () => {
  // The one record with another value is flagged, and none of those that leave the field out.
  const alone = (check: string, wanted: string) => [
    { check, message: expect.stringMatching(new RegExp(`^1 of \\d+ results without ${wanted} \\(`)) },
  ]
  const benign = corrupt(await personas('intents=benign&limit=100'), withoutUnset)
  const curious = corrupt(benign, (body) => ((body.results[0].intent = 'curious'), body))
  expect(judgeExchange(curious)).toEqual(alone('filters.intents', 'intent in benign'))
  const custom = corrupt(await personas('is_preset=false&limit=100'), withoutUnset)
  const preset = corrupt(custom, (body) => ((body.results[0].is_preset = true), body))
  expect(judgeExchange(preset)).toEqual(alone('filters.is-preset', 'is_preset false'))
  const presets = corrupt(await personas('is_preset=true&limit=100'), withoutUnset)
  const unmarked = corrupt(presets, (body) => (delete body.results[0].is_preset, body))
  expect(checksOf(judgeExchange(unmarked)), 'a preset that leaves is_preset out is custom').toEqual([
    'filters.is-preset',
  ])
})
