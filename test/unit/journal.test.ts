import { expect, it } from 'vitest'
import { Journal, JOURNAL_BODY_LIMIT, type JournalRecord } from '../../core/journal/journal.js'

const record = (n: number, body?: Uint8Array): JournalRecord => ({
  time: new Date(n * 1000).toISOString(),
  method: body ? 'POST' : 'GET',
  url: new URL(`http://localhost/v1/personas/?offset=${n}`),
  status: 200,
  duration_ms: 1,
  requestHeaders: new Headers({ authorization: 'Bearer secret' }),
  requestBody: body,
  responseHeaders: new Headers({ 'content-length': '2' }),
  responseBytes: 2,
})

it('keeps the newest entries, oldest first, once more than its size were recorded', () => {
  const journal = new Journal(3)
  for (let n = 1; n <= 10; n++) journal.record(record(n))
  expect(journal.list().map((entry) => [entry.seq, entry.query])).toEqual([
    [8, 'offset=8'],
    [9, 'offset=9'],
    [10, 'offset=10'],
  ])
  expect(journal.list({ limit: 2 }).map((entry) => entry.seq)).toEqual([9, 10])
})

it('drops the oldest entries past its bytes budget, keeping the newest in order', () => {
  const journal = new Journal()
  const body = new Uint8Array(JOURNAL_BODY_LIMIT).fill(0x61)
  for (let n = 1; n <= 100; n++) journal.record(record(n, body))
  const seqs = journal.list().map((entry) => entry.seq)
  // 4 MiB of bodies and headers in all: 63 bodies of 64 KiB and their headers fit, 64 do not.
  expect(seqs).toEqual(Array.from({ length: 63 }, (_, index) => 38 + index))
  expect(journal.bytes).toBeLessThanOrEqual(4 * 1024 * 1024 + 63 * 1024)
})
