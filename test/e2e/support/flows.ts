/**
 * The main flows, shared by the worker-mode and server-mode tests: the same clicks must give
 * the same screens whichever runtime answers. Expected numbers come from the seeded world
 * itself (the same seed builds the same world in every runtime), not from copied constants.
 */
import { expect, type TestInfo } from '@playwright/test'
import { createWorld, type schemas, type World } from 'agent-console-mock'
import type { Demo } from './demo.js'

/** What the tests expect, read from a world seeded like the one the page talks to. */
export class Oracle {
  constructor(readonly world: World) {}

  static async seeded(seed = 1) {
    return new Oracle(await createWorld({ seed }))
  }

  /** The first team's personas (the fixture tokens' team), in list order. */
  get personas(): readonly schemas.Persona[] {
    const team = this.world.teams.all()[0]!.id
    return this.world.personasByTeam().get(team)?.ordered ?? []
  }

  count(filter: (persona: schemas.Persona) => boolean): number {
    return this.personas.filter(filter).length
  }

  get policies(): schemas.Policy[] {
    return this.world.policies.all()
  }

  rules(policyId: string): readonly schemas.PolicyRule[] {
    return this.world.rulesByPolicy().get(policyId) ?? []
  }
}

export async function personasFlow(demo: Demo, oracle: Oracle, testInfo: TestInfo, shot?: string) {
  const { personas } = demo
  const all = oracle.personas.length
  await expect(personas.range()).toHaveText(`1–10 of ${all}`)
  await expect(personas.rows()).toHaveCount(10)
  await expect(personas.rows().first().getByTestId('persona-name')).toHaveText(oracle.personas[0]!.name)

  // Intents: one, then two (sent as repeated intents=).
  await personas.intent('adversarial').check()
  const adversarial = oracle.count((p) => p.intent === 'adversarial')
  await expect(personas.range()).toHaveText(`1–10 of ${adversarial}`)
  await expect(personas.rows().getByTestId('persona-intent')).toHaveText(Array(10).fill('adversarial'))
  await personas.intent('malicious').check()
  await expect(personas.range()).toHaveText(
    `1–10 of ${oracle.count((p) => p.intent === 'adversarial' || p.intent === 'malicious')}`,
  )
  if (shot) await demo.screenshot(`${shot}-personas-filtered`, testInfo, personas.panel())
  await personas.intent('adversarial').uncheck()
  await personas.intent('malicious').uncheck()

  // Presets only, then custom only.
  await personas.preset().selectOption('true')
  const presets = oracle.count((p) => p.is_preset === true)
  await expect(personas.range()).toHaveText(`1–${Math.min(10, presets)} of ${presets}`)
  await expect(personas.rows().getByTestId('persona-preset').first()).toContainText('yes')
  await personas.preset().selectOption('false')
  await expect(personas.range()).toHaveText(`1–10 of ${all - presets}`)
  await personas.preset().selectOption('')

  // Search matches name, description and role, case-insensitively: look for the last word of
  // a seeded role, in capitals, so the term exists whatever the seed.
  const term = oracle.personas[2]!.role.split(' ').at(-1)!.toLowerCase()
  await personas.search().fill(term.toUpperCase())
  const found = oracle.count((p) =>
    [p.name, p.description ?? '', p.role].some((text) => text.toLowerCase().includes(term)),
  )
  expect(found, 'the term comes from the seeded world').toBeGreaterThan(0)
  await expect(personas.range()).toHaveText(`1–${Math.min(10, found)} of ${found}`)
  await personas.search().fill('')
  await expect(personas.range()).toHaveText(`1–10 of ${all}`)

  // Paging: next, prev, a bigger page, the last page.
  await expect(personas.prev()).toBeDisabled()
  await personas.next().click()
  await expect(personas.range()).toHaveText(`11–20 of ${all}`)
  await expect(personas.rows().first().getByTestId('persona-name')).toHaveText(oracle.personas[10]!.name)
  await personas.prev().click()
  await expect(personas.range()).toHaveText(`1–10 of ${all}`)
  await personas.limit().fill('25')
  await expect(personas.range()).toHaveText(`1–25 of ${all}`)
  const lastStart = Math.floor((all - 1) / 25) * 25
  for (let start = 25; start <= lastStart; start += 25) {
    await personas.next().click()
    await expect(personas.range()).toHaveText(`${start + 1}–${Math.min(start + 25, all)} of ${all}`)
  }
  await expect(personas.next()).toBeDisabled()
  await expect(personas.range()).toHaveText(`${lastStart + 1}–${all} of ${all}`)
  await expect(personas.rows()).toHaveCount(all - lastStart)
}

export async function rulesFlow(demo: Demo, oracle: Oracle, testInfo: TestInfo, shot?: string) {
  const { rules } = demo
  const [big, single] = oracle.policies
  const bigRules = oracle.rules(big!.id)
  await expect(rules.range()).toHaveText(`1–20 of ${bigRules.length}`)
  await expect(rules.rows()).toHaveCount(20)
  await rules.next().click()
  await expect(rules.range()).toHaveText(`21–40 of ${bigRules.length}`)
  await expect(rules.rows().first()).toHaveAttribute('data-rule-id', bigRules[20]!.rule_id)

  // Details of a rule with provenance and (preferably) constraints.
  const rule = bigRules[21]!
  await rules.rows().nth(1).click()
  const details = rules.details().nth(1)
  await expect(details).toBeVisible()
  await expect(details.getByTestId('rule-natural-language')).toHaveText(rule.natural_language)
  await expect(details.getByTestId('rule-consequence-action')).toHaveText(rule.consequence.action)
  await expect(details.getByTestId('rule-consequence-severity')).toHaveText(rule.consequence.severity)
  await expect(details.getByTestId('rule-extracted-by')).toHaveText(rule.provenance.extracted_by)
  await expect(details.getByTestId('rule-source-location')).toContainText(rule.provenance.source_location.section)
  await expect(details.getByTestId('rule-source-text')).toHaveText(rule.provenance.source_location.source_text)
  await expect(details.getByTestId('rule-review-status')).toHaveText(rule.status)
  if (rule.constraints.length)
    await expect(details.getByTestId('rule-constraints').locator('li')).toHaveCount(rule.constraints.length)
  if (shot) await demo.screenshot(`${shot}-rule-details`, testInfo, rules.panel())
  await rules.rows().nth(1).click()
  await expect(details).toBeHidden()

  // A policy with a single rule: one page, no next.
  await rules.policy().selectOption(single!.id)
  await expect(rules.range()).toHaveText(`1–1 of ${oracle.rules(single!.id).length}`)
  await expect(rules.next()).toBeDisabled()
}

/** A seeded value and a new one: the first is skipped as a duplicate, the second created. */
export async function bulkAddFlow(demo: Demo, testInfo: TestInfo, fresh: string, shot?: string) {
  const { bulk } = demo
  await demo.role('super_admin')
  await demo.bulkAdd('Age group', ['18-24', `${fresh} | Fresh value`])
  await expect(bulk.summary()).toHaveText('1 created, 1 skipped as duplicate.')
  await expect(bulk.created()).toHaveText([fresh])
  await expect(bulk.createdRows().first()).toContainText('Fresh value')
  await expect(bulk.skipped()).toHaveText(['18-24'])
  if (shot) await demo.screenshot(`${shot}-bulk-add`, testInfo, bulk.panel())
}

/** 401, 403 and 422 (next to the limit input, and next to a bulk-add line). */
export async function errorsFlow(demo: Demo, testInfo: TestInfo, shot?: string) {
  const { personas, bulk, rules } = demo
  await demo.role('none')
  await expect(personas.status()).toHaveText('401 Unauthorized: Not authenticated')
  await expect(rules.status()).toHaveText('401 Unauthorized: Not authenticated')

  await demo.role('expired')
  await expect(personas.status()).toContainText('401 Unauthorized')

  await demo.role('no_permissions')
  await expect(personas.status()).toContainText('403 Forbidden')
  await expect(personas.status().getByTestId('status-detail')).toHaveText('Missing permission: persona:read')

  await demo.role('persona_reader')
  await expect(personas.status()).toBeHidden()
  await expect(rules.status()).toHaveText('403 Forbidden: Missing permission: policy:read')

  // A policy of another team is not found for a team member (404, not 403: no leak of ids).
  await demo.role('team_reader')
  const foreign = demo.page.getByTestId('rules-policy').locator('option').last()
  await rules.policy().selectOption((await foreign.getAttribute('value'))!)
  await expect(rules.status()).toHaveText('404 Not Found: Policy not found')
  await rules.policy().selectOption({ index: 0 })
  await expect(rules.status()).toBeHidden()

  await personas.limit().fill('0')
  await expect(personas.limitError()).toHaveText('Input should be greater than or equal to 1')
  await expect(personas.status()).toHaveText('422 Unprocessable Entity: 1 validation error')
  await personas.limit().fill('101')
  await expect(personas.limitError()).toHaveText('Input should be less than or equal to 100')
  if (shot) await demo.screenshot(`${shot}-errors-limit`, testInfo, personas.panel())
  await personas.limit().fill('10')
  await expect(personas.limitError()).toBeHidden()

  // Bulk add as a team reader: 403; then as super admin, an empty line 2: 422 on that line.
  await demo.bulkAdd('Region', ['Atlantis'])
  await expect(bulk.status()).toHaveText('403 Forbidden: Super admin permission required')
  await demo.role('super_admin')
  await demo.bulkAdd('Region', ['Atlantis', '', 'Lemuria'])
  await expect(bulk.lineError(2)).toContainText('String should have at least 1 character')
  await expect(bulk.lineError(2)).toContainText('Line 2')
  await expect(bulk.lineError(1)).toHaveCount(0)
  await expect(bulk.status()).toContainText('422')
  if (shot) await demo.screenshot(`${shot}-errors-bulk-line`, testInfo, bulk.panel())

  // A super admin has no team in the token: the API asks for team_id until one is chosen.
  await expect(personas.status()).toContainText('team_id is required')
  await personas.team().selectOption({ index: 2 })
  await expect(personas.status()).toBeHidden()
}
