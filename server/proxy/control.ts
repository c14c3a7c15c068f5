import { trustedOrigin, withControlGuard, type ControlGuard } from '../../core/control-guard.js'
import type { Outcome } from '../../fastapi/http/reply.js'
import { DEV_CORS, withCors } from '../../core/cors.js'
import type { Answer } from '../../core/exchange.js'
import { jsonResponse, notFound, answer as plainAnswer } from '../../fastapi/http/responses.js'
import { journalFilter } from '../../handlers/control/journal.js'
import { toHar } from '../../handlers/control/har.js'
import type { Journal } from '../../core/journal/journal.js'
import type { ViolationLog } from './judge.js'
import type { ProxyRecording } from './record.js'

/**
 * The proxy's own `/__mock/*`, never forwarded: the journal (and its HAR), the violations, the recorded
 * contract. Guarded as the mock's control API is (core/control-guard.ts): loopback or the server's own Host
 * names only, the control token where one is demanded, and CORS granted to trusted (loopback) pages only.
 */
export function proxyControl(
  journal: Journal,
  violations: ViolationLog,
  recording: ProxyRecording,
  guard: ControlGuard,
): Answer {
  const routes: Record<string, (url: URL) => Outcome | Promise<Outcome>> = {
    'GET /__mock/requests': (url) => jsonResponse(200, { requests: journal.list(journalFilter(url)) }),
    'DELETE /__mock/requests': () => (journal.clear(), plainAnswer(null, 204, {})),
    'GET /__mock/requests.har': (url) =>
      jsonResponse(200, toHar(journal.list(journalFilter(url))), {
        'content-disposition': 'attachment; filename="requests.har"',
      }),
    'GET /__mock/violations': () => jsonResponse(200, { violations: violations.list() }),
    'DELETE /__mock/violations': () => (violations.clear(), plainAnswer(null, 204, {})),
    'GET /__mock/contract': async () => jsonResponse(200, await recording.contract()),
    'DELETE /__mock/contract': () => (recording.clear(), plainAnswer(null, 204, {})),
    'GET /__mock/health': () => jsonResponse(200, { status: 'ok', mode: 'proxy' }),
  }
  const control: Answer = async ({ request, url }) => {
    const route = routes[`${request.method} ${url.pathname}`]
    try {
      return await (route ? route(url) : notFound())
    } catch (error) {
      // A bad filter is a ready 400, as the mock's control API answers it.
      if (error instanceof Response) return error
      throw error
    }
  }
  const cors = { ...DEV_CORS, allowOrigins: (origin: string) => trustedOrigin(origin, guard) }
  return withCors(withControlGuard(control, guard), cors, [])
}
