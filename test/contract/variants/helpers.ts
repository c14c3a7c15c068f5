import type { RequestHandler } from 'msw'
import type { Fixtures } from '../../../factories/fixtures.js'
import type { Json } from '../support/variant.js'

/**
 * Deliberately broken variants of the mock, each a realistic contract bug planted in front of the
 * real handlers. `caughtBy` is the check meant to catch it; `alsoFails` the other checks the bug
 * breaks too (the test asserts the failed checks are exactly these, so every check is precise).
 */
export interface BrokenVariant {
  bug: string
  caughtBy: string
  alsoFails?: string[]
  handlers: (fixtures: Fixtures) => RequestHandler[]
}

export const bearer = (token: string) => `Bearer ${token}`
export const isoDate = (seconds: number) => new Date(seconds * 1000).toISOString()
/** The items of a request the answer left out (a duplicate the mock skipped). */
export function withoutReturned(sent: Json[], returned: Json[]): Json[] {
  const unmatched = returned.map((value) => value.value)
  return sent.filter((item) => {
    const at = unmatched.indexOf(item.value)
    if (at >= 0) unmatched.splice(at, 1)
    return at < 0
  })
}
/** The JSON body a request sent, or undefined when it is not JSON. */
export const bodyOf = (request: Request): Promise<Json> =>
  request
    .clone()
    .json()
    .catch(() => undefined)
export const isFiltered = (request: Request) =>
  ['intents', 'is_preset', 'search'].some((name) => new URL(request.url).searchParams.has(name))
export const sortBy = (field: string) => (a: Json, b: Json) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0)
