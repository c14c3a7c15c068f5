import { listPersonas } from '../api.js'
import type { Check, CheckScope } from '../check.js'
import { crawl, idsOf, type Crawl, type Json } from '../crawl.js'
import { describeIdDifference, mismatch } from '../expectations.js'
import { describeRequest, type QueryValue } from '../http-client.js'
import { partialNote, PERSONA_PAGE, PERSONA_PAGES } from '../reference.js'
import { personaBaseline } from './paging.js'

type Query = Record<string, QueryValue>
type Predicate = (record: Json) => boolean

const SEARCH_FIELDS = ['name', 'description', 'role'] as const
const INTENTS = ['benign', 'curious', 'adversarial', 'malicious']

/**
 * A filtered query returns exactly the records of the unfiltered set that match: cross-checked
 * record by record when both sets could be read whole, and record by record for the match alone
 * when they could not.
 */
async function expectExactly(scope: CheckScope, reference: Crawl, query: Query, matches: Predicate): Promise<void> {
  const { ctx } = scope
  // Without a whole reference nothing can be cross-checked: two pages show whether the records match.
  const maxPages = reference.complete ? PERSONA_PAGES : 2
  const filtered = await crawl(ctx, (offset, limit) => listPersonas(ctx, { ...query, limit, offset }), { pageSize: PERSONA_PAGE, maxPages })
  if (filtered.problem) return scope.fail(filtered.problem)
  const first = filtered.pages[0]!
  const request = describeRequest(first.answer.request)
  const strangers = filtered.records.filter((record) => !matches(record))
  scope.expect(strangers.length === 0, { request, expected: 'only matching records', got: `${strangers.length} that do not match (${idsOf(strangers).slice(0, 3).join(', ')})` })
  if (!reference.complete || !filtered.complete) return scope.note(partialNote(request, filtered))
  const expected = idsOf(reference.records.filter(matches))
  scope.expect(first.page.total === expected.length, mismatch(first.answer, `total ${expected.length}: the matching records of the unfiltered set`, `total ${first.page.total}`))
  const got = idsOf(filtered.records)
  const same = got.length === expected.length && expected.every((id) => got.includes(id))
  scope.expect(same, { request, expected: `the ${expected.length} matching records of the unfiltered set`, got: describeIdDifference(expected, got) })
}

const text = (record: Json, field: string) => (typeof record[field] === 'string' ? (record[field] as string) : '')
const searchMatches = (term: string): Predicate => (record) => SEARCH_FIELDS.some((field) => text(record, field).toLowerCase().includes(term.toLowerCase()))

/**
 * A search term that finds a record through `field` alone (no other searched field of that
 * record holds it), so a server that ignores the field misses at least that record. A middle
 * slice of a word, sent in upper case, also shows matching is by substring and case-insensitive.
 */
export function termFor(records: readonly Json[], field: (typeof SEARCH_FIELDS)[number]): { term: string; record: Json } | undefined {
  for (const record of records) {
    for (const word of text(record, field).split(/[^A-Za-z0-9]+/)) {
      if (word.length < 5) continue
      const term = word.slice(1, Math.min(word.length, 6)).toUpperCase()
      const elsewhere = SEARCH_FIELDS.filter((other) => other !== field).some((other) => text(record, other).toLowerCase().includes(term.toLowerCase()))
      if (!elsewhere) return { term, record }
    }
  }
  return undefined
}

/** Filters: team scope, intents, is_preset, search, and all three together, cross-checked against the unfiltered set. */
export const filterChecks: Check[] = [
  {
    id: 'filters.team-scope',
    description: 'every persona listed belongs to the requested team',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      const teamId = scope.ctx.ids.teamId
      for (const { answer, page } of baseline.reference.pages) {
        const strangers = page.results.filter((record) => record['team_id'] !== teamId)
        scope.expect(strangers.length === 0, mismatch(answer, `only personas with team_id ${teamId}`, `${strangers.length} of other teams (${strangers.slice(0, 3).map((record) => `${String(record['id'])} of ${String(record['team_id'])}`).join(', ')})`))
      }
    },
  },
  {
    id: 'filters.intents',
    description: 'intents (one or several) return exactly the personas with one of those intents',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      for (const intents of [...INTENTS.map((intent) => [intent]), [INTENTS[0]!, INTENTS[2]!]]) {
        await expectExactly(scope, baseline.reference, { intents }, (record) => intents.includes(text(record, 'intent')))
      }
    },
  },
  {
    id: 'filters.is-preset',
    description: 'is_preset=true and is_preset=false return exactly the presets and the custom personas',
    needs: ['team'],
    async run(scope) {
      const baseline = await personaBaseline(scope)
      if (!baseline) return
      for (const isPreset of [true, false]) await expectExactly(scope, baseline.reference, { is_preset: isPreset }, (record) => record['is_preset'] === isPreset)
    },
  },
  {
    id: 'filters.search-fields',
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
    },
  },
  {
    id: 'filters.combined',
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
      const matches: Predicate = (record) => text(record, 'intent') === intent && record['is_preset'] === isPreset && searchMatches(found.term)(record)
      await expectExactly(scope, baseline.reference, { intents: [intent], is_preset: isPreset, search: found.term }, matches)
    },
  },
]
