import type { Check } from './check.js'
import { mismatch } from './expectations.js'
import {
  expectExactly,
  INTENTS,
  type Predicate,
  SEARCH_FIELDS,
  searchMatches,
  termOutsideSearch,
  termFor,
  text,
} from './filter-matching.js'
import { personaBaseline } from './paging.js'

/** Filters: team scope, intents, is_preset, search, and all three together, cross-checked against the unfiltered set. */
export const filterChecks: Check[] = [
  {
    id: 'filters.team-scope',
    kind: 'contract',
    description: 'every persona listed belongs to the requested team',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      const teamId = scope.ctx.ids.teamId
      for (const { answer, page } of baseline.reference.pages) {
        const strangers = page.results.filter((record) => record['team_id'] !== teamId)
        scope.expect(
          strangers.length === 0,
          mismatch(
            answer,
            `only personas with team_id ${teamId}`,
            `${strangers.length} of other teams (${strangers
              .slice(0, 3)
              .map((record) => `${String(record['id'])} of ${String(record['team_id'])}`)
              .join(', ')})`,
          ),
        )
      }
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
        await expectExactly(scope, baseline.reference, { intents }, (record) =>
          intents.includes(text(record, 'intent')),
        )
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
        await expectExactly(
          scope,
          baseline.reference,
          { is_preset: isPreset },
          (record) => record['is_preset'] === isPreset,
        )
    },
  },
  {
    id: 'filters.search-fields',
    kind: 'contract',
    description: 'search matches a case-insensitive substring of name, description or role, and nothing else',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      for (const field of SEARCH_FIELDS) {
        const found = termFor(baseline.reference.records, field)
        if (!found) scope.note(`no word of a ${field} was found to search for`)
        else await expectExactly(scope, baseline.reference, { search: found.term }, searchMatches(found.term))
      }
      const nothing = `zq${scope.ctx.runId.replace(/[^a-z0-9]/g, '')}`
      await expectExactly(scope, baseline.reference, { search: nothing }, searchMatches(nothing))
      // Only a whole set tells a term no searched field holds: a partial one may hide a record that holds it.
      const outside = baseline.reference.complete ? termOutsideSearch(baseline.reference.records) : undefined
      if (outside) await expectExactly(scope, baseline.reference, { search: outside.term }, searchMatches(outside.term))
      else scope.note('no word of a field that is not searched was found to search for')
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
      // A name word: a server that ignores a search field is filters.search-fields' finding, not this one's.
      const found = termFor(baseline.reference.records, 'name')
      if (!found) return scope.skip('no name word was found to search for')
      const intent = text(found.record, 'intent')
      const isPreset = found.record['is_preset'] === true
      const matches: Predicate = (record) =>
        text(record, 'intent') === intent && record['is_preset'] === isPreset && searchMatches(found.term)(record)
      await expectExactly(
        scope,
        baseline.reference,
        { intents: [intent], is_preset: isPreset, search: found.term },
        matches,
      )
    },
  },
]
