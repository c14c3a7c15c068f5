import { InvalidOverrideError, mockBeforeEach, type StoryMock } from 'agent-console-mock/storybook'
import { expect, test } from 'agent-console-mock/vitest'
import document from '../openapi/openapi-3.1.json' with { type: 'json' }

// The Storybook helper on this page's msw worker (as msw-storybook-addon hands it over in `context.msw`);
// test/e2e/tests/storybook.spec.ts drives it in a real Storybook.

test('a story gets a world of the preview’s options and its own parameters, with its overrides', async ({ mock }) => {
  let story: StoryMock | undefined
  const beforeEach = mockBeforeEach({ seed: 3, personasPerTeam: 5 })
  await beforeEach({
    msw: mock.worker,
    parameters: {
      agentConsoleMock: {
        personasPerTeam: 2,
        overrides: { list_policy_rules: { error: 'not_found' } },
        arrange: (arranged) => (story = arranged),
      },
    },
  })
  expect(story?.fixtures.seed).toBe(3)
  const token = story?.fixtures.tokens.team_reader
  const personas = await fetch('/v1/personas/', { headers: { authorization: `Bearer ${token}` } })
  expect((await personas.json()).total).toBe(2) // the story's world, not the test's (60 a team)
  const rules = await fetch(`/v1/policies/${story?.fixtures.policies[0]?.id}/rules`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect([rules.status, await rules.text()]).toEqual([404, '{"detail":"Policy not found"}'])

  // The next story (its handler comes first, as the addon drops the last one's): a fresh world, no overrides.
  let next: StoryMock | undefined
  await beforeEach({ msw: mock.worker, parameters: { agentConsoleMock: { arrange: (arranged) => (next = arranged) } } })
  expect(next?.world).not.toBe(story?.world)
  const page = await fetch('/v1/personas/', { headers: { authorization: `Bearer ${token}` } })
  expect((await page.json()).total).toBe(5)
  const rulesNext = await fetch(`/v1/policies/${next?.fixtures.policies[0]?.id}/rules`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(rulesNext.status).toBe(200)
})

test('a story serves a team’s own OpenAPI document given in its parameters', async ({ mock }) => {
  let story: StoryMock | undefined
  await mockBeforeEach({ seed: 3 })({
    msw: mock.worker,
    parameters: { agentConsoleMock: { openapi: document, arrange: (arranged) => (story = arranged) } },
  })
  const headers = { authorization: `Bearer ${story?.fixtures.tokens.team_reader}` }
  const agents = await (await fetch('/v1/agents/', { headers })).json()
  expect(agents.total, 'the seeded records of the collection').toBe(5)
  const one = await fetch(`/v1/agents/${agents.results[0].id}`, { headers })
  expect(await one.json()).toEqual(agents.results[0])
  const report = await fetch('/v1/evaluations/4c1f1a36-0c2e-4a4c-9e0b-3c8e4f3c2a10/report', { headers })
  expect((await report.json()).evaluation_id).toBe('4c1f1a36-0c2e-4a4c-9e0b-3c8e4f3c2a10')
})

test('says what is missing or wrong', async () => {
  await expect(mockBeforeEach()({ parameters: {} })).rejects.toThrow(/loaders: \[mswLoader\(setupStoryWorker\)\]/)
  const msw = { use: () => {} }
  const bad = { list_personas: { status: 200 as const, body: { results: 'none', total: 0 } } }
  await expect(
    mockBeforeEach()({ msw, parameters: { agentConsoleMock: { overrides: bad as never } } }),
  ).rejects.toThrow(InvalidOverrideError)
  await expect(mockBeforeEach()({ msw, parameters: { agentConsoleMock: { scenario: 'nope' } } })).rejects.toThrow(
    /Unknown scenario "nope"/,
  )
})
