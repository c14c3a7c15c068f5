/** How long verify waits before sending a request a rate limit refused (429): what its `Retry-After` asks, bounded. */
import { expect, it } from 'vitest'
import { retryDelayMs } from '../../verify/client/http.js'

it('waits the seconds or until the date a Retry-After names, a second when it names none, ten at most', () => {
  const now = Date.parse('2030-01-01T00:00:00Z')
  expect(retryDelayMs('2', now)).toBe(2000)
  expect(retryDelayMs(' 0 ', now)).toBe(0)
  expect(retryDelayMs('Tue, 01 Jan 2030 00:00:03 GMT', now)).toBe(3000)
  expect(retryDelayMs('Mon, 31 Dec 2029 23:59:00 GMT', now), 'a date past').toBe(0)
  expect(retryDelayMs('3600', now), 'an hour outlasts any run').toBe(10_000)
  expect(retryDelayMs(null, now)).toBe(1000)
  expect(retryDelayMs('soon', now)).toBe(1000)
  expect(retryDelayMs('-5', now)).toBe(1000)
})
