import { mockBeforeEach, setupStoryWorker, type StoryMock } from 'agent-console-mock/storybook'
import { afterEach, expect, test, vi } from 'vitest'
import { NOT_THE_API, printed } from './support/unhandled.js'

// The worker setupStoryWorker gives msw-storybook-addon, on the installed msw (2 or 3): a file of its own, so a
// page of its own (as msw-adapter.test.ts). msw-default.test.ts shows that msw itself warns about the request.

afterEach(() => void vi.restoreAllMocks())

test('the story worker passes on what no story answers without a warning, and answers the story’s API', async () => {
  const worker = await setupStoryWorker()
  try {
    let story: StoryMock | undefined
    await mockBeforeEach({ seed: 4, personasPerTeam: 3 })({
      msw: worker,
      parameters: { agentConsoleMock: { arrange: (arranged) => (story = arranged) } },
    })
    const headers = { authorization: `Bearer ${story?.fixtures.tokens.team_reader}` }
    let total = 0
    const log = await printed(async () => {
      await fetch(NOT_THE_API)
      total = (await (await fetch('/v1/personas/', { headers })).json()).total
    })
    expect([log, total]).toEqual(['', 3])
  } finally {
    worker.stop()
  }
})
