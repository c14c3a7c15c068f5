import { API_ROUTES } from '../../model/api/routes.js'
import { createRouter } from '../../fastapi/http/router.js'
import { DEFAULT_PROFILE } from '../../model/profile.js'
import type { ContractClient, ApiAnswer } from '../client/http.js'
import type { ProfileFile } from '../profile/settings.js'
import { evidence } from './types.js'
import type { Evidence } from '../types.js'

const route = createRouter(API_ROUTES)

interface Page {
  results: unknown[]
  total: number
}

/**
 * A page's `total` read twice more, as the verifier's paging checks read it: on the first page of the same
 * query (a total must not depend on the offset) and on the last record it counts (exactly one record must
 * be there). One answer alone cannot show a total that counts too much or too little.
 */
export async function pagingProbes(answer: ApiAnswer, profile: ProfileFile, client: ContractClient) {
  const page = answer.json as Page
  const names = pagingNames(answer.request.path, profile)
  if (!names || !Array.isArray(page?.results) || typeof page.total !== 'number') return []
  const found: Evidence[] = []
  const first = await probe(answer, client, (query) => query.delete(names.offset))
  if (first.json && (first.json as Page).total !== page.total)
    found.push(evidence(first, `total ${page.total}, as at offset ${offsetOf(answer, names.offset)}`, totalOf(first)))
  if (page.total > 0) {
    const last = await probe(answer, client, (query) => {
      query.set(names.offset, String(page.total - 1))
      query.set(names.limit, '1')
    })
    const results = (last.json as Page | undefined)?.results
    if (!Array.isArray(results) || results.length !== 1)
      found.push(evidence(last, `the last of ${page.total} records counted`, describePage(last)))
  }
  return found
}

function pagingNames(path: string, profile: ProfileFile): { limit: string; offset: string } | undefined {
  const found = route('GET', path.split('?', 1)[0]!)
  if (found.kind !== 'match') return undefined
  if (found.route.name === 'list_personas') return { limit: 'limit', offset: 'offset' }
  if (found.route.name !== 'list_policy_rules') return undefined
  const paging = { ...DEFAULT_PROFILE.rulesPaging, ...(profile.rulesPaging ?? {}) }
  return { limit: paging.limit, offset: paging.offset }
}

async function probe(answer: ApiAnswer, client: ContractClient, change: (query: URLSearchParams) => void) {
  const [path, raw = ''] = answer.request.path.split('?', 2) as [string, string?]
  const query = new URLSearchParams(raw)
  change(query)
  const text = query.toString()
  return client.send({ ...answer.request, path: text ? `${path}?${text}` : path })
}

const offsetOf = (answer: ApiAnswer, name: string): string =>
  new URLSearchParams(answer.request.path.split('?', 2)[1] ?? '').get(name) ?? '0'

const totalOf = (answer: ApiAnswer): string => `${answer.status} with total ${(answer.json as Page | undefined)?.total}`

function describePage(answer: ApiAnswer): string {
  const results = (answer.json as Page | undefined)?.results
  return Array.isArray(results) ? `${answer.status} with ${results.length} records` : `${answer.status}`
}
