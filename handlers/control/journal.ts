import { z } from 'zod'
import { answer, jsonResponse } from '../../fastapi/http/responses.js'
import { invalidBody } from './body.js'
import { toHar } from './har.js'
import type { ControlRoute, WorldCall } from './route.js'

const JournalQuery = z.object({
  method: z.string().optional(),
  path: z.string().optional(),
  status: z.coerce.number().int().optional(),
  limit: z.coerce.number().int().min(1).optional(),
})

/** The journal of the API requests the request's world answered. */
export const journalRoutes: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/requests',
    description: 'the journal of recent API requests, oldest first; ?method=&path=&status=&limit=',
    answer: ({ url, instance }) => jsonResponse(200, { requests: instance.journal.list(journalFilter(url)) }),
  },
  {
    method: 'GET',
    path: '/requests.har',
    description: 'the journal as a HAR 1.2 file (the same filters)',
    answer: harExport,
  },
  {
    method: 'DELETE',
    path: '/requests',
    description: 'empties the journal',
    answer: ({ instance }) => (instance.journal.clear(), answer(null, 204, {})),
  },
]

function harExport({ url, instance }: WorldCall) {
  return jsonResponse(200, toHar(instance.journal.list(journalFilter(url))), {
    'content-disposition': 'attachment; filename="requests.har"',
  })
}

/** The journal filters of a `/__mock/requests` query (`method`, `path`, `status`, `limit`); a bad one throws a 400. */
export function journalFilter(url: URL) {
  const query = JournalQuery.safeParse(Object.fromEntries(url.searchParams))
  if (!query.success) throw invalidBody(query.error)
  return query.data
}
