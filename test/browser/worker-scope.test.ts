import { expect, type MockServiceWorker, test } from 'agent-console-mock/vitest'

// A second file: its own page, its own worker, started while the other file's runs.
let first: MockServiceWorker | undefined
let firstWorld: unknown

test('the worker is started once for the file', async ({ mock, mockServiceWorker }) => {
  first = mockServiceWorker
  firstWorld = mock.world
  expect(mock.worker).toBe(mockServiceWorker.worker)
  expect(
    (await fetch(`/v1/personas/?limit=1`, { headers: { authorization: `Bearer ${mock.fixtures.tokens.team_reader}` } }))
      .status,
  ).toBe(200)
})

test('and the next test gets the same one, with another world', async ({ mock, mockServiceWorker }) => {
  expect(mockServiceWorker).toBe(first)
  expect(mock.world).not.toBe(firstWorld)
})

test('a second test cannot take the worker while one holds it (test.concurrent)', ({ mockServiceWorker }) => {
  expect(() => mockServiceWorker.serve({} as never)).toThrow(/test\.concurrent/)
})
