import type { Check } from './check.js'
import { mismatch } from './expectations.js'
import {
  expectExactly,
  expectSearch,
  INTENTS,
  intentIn,
  intentOf,
  presetIs,
  readingProbes,
  SEARCH_FIELDS,
  SearchReadings,
  termsOutsideSearch,
  wordFor,
} from './filter-matching.js'
import { personaBaseline } from './paging.js'
import type { CheckScope } from './check.js'
import { type Crawl, isRecord, type Json, sameId } from '../client/crawl.js'
import type { ApiAnswer } from '../client/http.js'
import { listPersonas } from '../client/api.js'
import { rulesReference } from './reference-sets.js'
import { pageLimit } from '../drift/list-bounds.js'

/**
 * Filters: team scope, intents, is_preset, search, and all three together, cross-checked against the unfiltered set;
 * and the rules list's scope, its policy.
 */
export const filterChecks: Check[] = [
  {
    id: 'filters.team-scope',
    kind: 'contract',
    description: "every persona listed belongs to the requested team, or without team_id to the token's team",
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      const teamId = scope.ctx.ids.teamId
      for (const { answer, page } of baseline.reference.pages)
        expectOnlyOf(scope, answer, page.results, { field: 'team_id', id: teamId, records: 'personas', of: 'teams' })
      await expectOmittedTeamScoped(scope, baseline.reference)
    },
  },
  {
    id: 'filters.policy-scope',
    kind: 'contract',
    description: "every rule listed belongs to the path's policy (policy_id)",
    needs: ['policy'],
    async run(scope) {
      const reference = await rulesReference(scope.ctx)
      if (reference.problem) return scope.fail(reference.problem)
      const policyId = scope.ctx.ids.policyId
      for (const { answer, page } of reference.pages)
        expectOnlyOf(scope, answer, page.results, {
          field: 'policy_id',
          id: policyId,
          records: 'rules',
          of: 'policies',
        })
    },
  },
  {
    id: 'filters.intents',
    kind: 'contract',
    description: 'intents (one or several) return exactly the personas with one of those intents',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      for (const intents of [...INTENTS.map((intent) => [intent]), [INTENTS[0]!, INTENTS[2]!]]) {
        await expectExactly(scope, baseline.reference, { intents }, intentIn(intents))
      }
    },
  },
  {
    id: 'filters.is-preset',
    kind: 'contract',
    description: 'is_preset=true and is_preset=false return exactly the presets and the custom personas',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      for (const isPreset of [true, false])
        await expectExactly(scope, baseline.reference, { is_preset: isPreset }, presetIs(isPreset))
    },
  },
  {
    id: 'filters.search-fields',
    kind: 'contract',
    description:
      "search matches name, description and role, and nothing else; how it matches (case, words) is the server's",
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      const { reference } = baseline
      const readings = new SearchReadings()
      const search = (term: string) => expectSearch(scope, reference, { term }, readings)
      // A word as written from each searched field: a server that ignores the field misses its record.
      for (const field of SEARCH_FIELDS) {
        const found = wordFor(reference.records, field)
        if (!found) scope.note(`no word of a ${field} was found to search for`)
        else await search(found.word)
      }
      // Soundness only: the other case and slices of a word tell the server's reading from the mock's.
      const nameWord = wordFor(reference.records, 'name')
      for (const term of nameWord ? readingProbes(nameWord.word) : []) await search(term)
      await search(`zq${scope.ctx.runId.replace(/[^a-z0-9]/g, '')}`)
      // Only a whole set tells a term no searched field holds: a partial one may hide a record that holds it.
      // One term per text field that is not searched: a server that also searches any of them finds a record.
      const outside = reference.complete ? termsOutsideSearch(reference.records) : []
      for (const { term } of outside) await search(term)
      if (outside.length === 0) scope.note('no word of a field that is not searched was found to search for')
      // A substring, not a SQL LIKE pattern: `e%a` and `a_e` find only records holding those very characters (as a
      // pattern each would match many names). Three characters: a server may refuse shorter searches.
      for (const wildcard of ['e%a', 'a_e']) await search(wildcard)
      readings.warnIfNarrower(scope)
    },
  },
  {
    id: 'filters.combined',
    kind: 'contract',
    description: 'intents, is_preset and search together return the personas matching all three',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      // A name word the fewest personas hold (one alone, where there is one): a server that ignores a search field,
      // or ignores intents or is_preset where search finds that one persona alone, is another check's finding.
      const found = wordFor(baseline.reference.records, 'name', { fewest: true })
      if (!found) return scope.skip('no name word was found to search for')
      // A field the record leaves out holds its documented default (intent benign, is_preset false).
      const intent = intentOf(found.record)
      const isPreset = presetIs(true)(found.record)
      const readings = new SearchReadings()
      await expectSearch(
        scope,
        baseline.reference,
        {
          term: found.word,
          query: { intents: [intent], is_preset: isPreset },
          alsoMatches: (record) => intentIn([intent])(record) && presetIs(isPreset)(record),
        },
        readings,
      )
      readings.warnIfNarrower(scope)
    },
  },
]

/**
 * Without `team_id` a server may refuse (a choice: the description calls it required), or list the token's team
 * as the mock does; a 200 that holds personas of another team, or counts more than the team's, leaks them.
 */
async function expectOmittedTeamScoped(scope: CheckScope, reference: Crawl): Promise<void> {
  const { ctx } = scope
  const teamId = ctx.ids.teamId
  const limit = await pageLimit(ctx, 'personas', 100)
  const answer = await ctx.send(listPersonas(ctx, { team_id: undefined, limit }))
  const page = answer.json as { results?: unknown; total?: unknown } | undefined
  if (answer.status !== 200 || !Array.isArray(page?.results)) return
  const results = (page.results as unknown[]).filter(isRecord)
  const omitted = { field: 'team_id', id: teamId, of: 'teams' }
  expectOnlyOf(scope, answer, results, { ...omitted, records: "personas without team_id (or a refusal): the token's," })
  const total = reference.pages[0]?.page.total
  if (total !== undefined)
    scope.expect(
      page.total === total,
      mismatch(
        answer,
        `without team_id, total ${total}: the team's, as with team_id=${teamId}`,
        `total ${String(page.total)}`,
      ),
    )
}

/** Every record of a page is of the one team or policy asked for (`field` is `id`); up to three others named. */
function expectOnlyOf(
  scope: CheckScope,
  answer: ApiAnswer,
  records: readonly Json[],
  scoped: { field: string; id: string | undefined; records: string; of: string },
): void {
  const strangers = records.filter((record) => !sameId(record[scoped.field], scoped.id))
  const named = strangers.slice(0, 3).map((record) => `${String(record['id'])} of ${String(record[scoped.field])}`)
  scope.expect(
    strangers.length === 0,
    mismatch(
      answer,
      `only ${scoped.records} with ${scoped.field} ${scoped.id}`,
      `${strangers.length} of other ${scoped.of} (${named.join(', ')})`,
    ),
  )
}
