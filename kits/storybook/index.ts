// Brings Storybook's declarations into this program for the augmentation below, and into no declaration file: tsc
// drops an import that no declaration names, so dist/kits/storybook/index.d.ts imports nothing of Storybook.
import type {} from 'storybook/internal/csf'
import type { RequestHandler } from 'msw'
import type { SetupWorker } from 'msw/browser'
import { setupWorkerInThePage } from '../../browser/page-only.js'
import { startPassingOn } from '../../browser/msw-adapter.js'
import type { OperationName } from '../../model/api/routes.js'
import { MockHandle } from '../../core/instance/handle.js'
import type { OperationOverride } from '../../core/overrides/types.js'
import { freshMock, type FreshMockOptions } from '../fresh-mock.js'
import { handlersOf } from '../../handlers/index.js'

/** Typed overrides by operation, as `mock.override(operation, answer)` takes them. */
export type StoryOverrides = { [Op in OperationName]?: OperationOverride<Op> }

/**
 * A story's `parameters.agentConsoleMock`: its world's options (over those given to {@link mockBeforeEach};
 * Storybook merges the parameters of the preview, the component and the story) and typed overrides.
 */
export interface StoryMockParameters extends FreshMockOptions {
  /** Operations that answer something else in this story (status and body, an error shape, a function). */
  overrides?: StoryOverrides
  /** Arranges the story's world before it renders, e.g. `(mock) => mock.create.persona({ name: 'Ada' })`. */
  arrange?: (mock: StoryMock) => unknown
}

/**
 * The story's parameters as the `beforeEach` reads them: structural, so that this entry's declarations need nothing
 * of Storybook, which is no peer of the package (a project that type-checks every entry may not have it). Storybook's
 * own `Parameters` (any parameter, and `agentConsoleMock` as declared below) fits it.
 */
export interface StoryParameters {
  /** agent-console-mock/storybook: the story's world (seed, scenario, profile) and typed overrides. */
  agentConsoleMock?: StoryMockParameters
  [name: string]: unknown
}

// Types `parameters.agentConsoleMock` in every story, as msw-storybook-addon types `parameters.msw`. Where Storybook
// is not installed, TypeScript reads no module of this name and passes over this block without a word.
declare module 'storybook/internal/csf' {
  interface Parameters {
    /** agent-console-mock/storybook: the story's world (seed, scenario, profile) and typed overrides. */
    agentConsoleMock?: StoryMockParameters
  }
}

/** The mock of one story: its own world, fixtures, factories, clock and overrides. */
export class StoryMock extends MockHandle {}

/** What the `beforeEach` reads of Storybook's story context (a structural part of it). */
export interface StoryMockContext {
  /** Storybook's parameters, typed with `agentConsoleMock` (above). */
  parameters: StoryParameters
  /** msw's worker, set by msw-storybook-addon's loader or `beforeEach` (which reset its handlers between stories). */
  msw?: { use(...handlers: RequestHandler[]): void }
}

/**
 * msw's worker for msw-storybook-addon 3, its `setup` (`mswLoader(setupStoryWorker)` from
 * `msw-storybook-addon/csf3`, or `addonMsw(setupStoryWorker)`): started at `/mockServiceWorker.js`, quiet, and
 * passing on what no handler answers without a warning on msw 2 and msw 3 alike. The addon's own setup names
 * msw 2's option, which msw 3 ignores: every request of Storybook's own would then log an `[MSW] Warning`.
 */
export async function setupStoryWorker(): Promise<SetupWorker> {
  const worker = await setupWorkerInThePage('storybook')
  await startPassingOn(worker, { url: '/mockServiceWorker.js', quiet: true })
  return worker
}

/**
 * A `beforeEach` for Storybook with msw-storybook-addon 3 (`loaders: [mswLoader(setupStoryWorker)]`): every story
 * gets a world of its own, a fork of the seeded base, with the story's seed, scenario and typed overrides
 * from `parameters.agentConsoleMock`, and the addon's worker answers the page's `/v1/...` and `/__mock/...`
 * requests from it. A world kept in a module would carry one story's writes into the next; the addon drops
 * these handlers before the next story, and the world goes with them.
 * @example
 * // .storybook/preview.ts
 * export default {
 *   loaders: [mswLoader(setupStoryWorker)],
 *   beforeEach: mockBeforeEach({ seed: 1, personasPerTeam: 30 }),
 * }
 * // a story
 * export const Forbidden = {
 *   parameters: { agentConsoleMock: { overrides: { list_personas: { error: 'forbidden' } } } },
 * }
 */
export function mockBeforeEach(options: FreshMockOptions = {}): (context: StoryMockContext) => Promise<void> {
  return async (context) => {
    const { msw, parameters } = context
    if (!msw)
      throw new Error(
        'agent-console-mock/storybook: the story context has no msw worker; ' +
          "add msw-storybook-addon's loader to .storybook/preview.ts: loaders: [mswLoader(setupStoryWorker)], " +
          "mswLoader from 'msw-storybook-addon/csf3' (it must run before this beforeEach)",
      )
    const { overrides = {}, arrange, ...storyOptions } = parameters.agentConsoleMock ?? {}
    const merged = { ...options, ...storyOptions }
    const { mock, core } = await freshMock(merged, (instance) => new StoryMock(instance, merged))
    const entries = Object.entries(overrides) as Array<[OperationName, OperationOverride<OperationName>]>
    for (const [operation, override] of entries) mock.override(operation, override)
    await arrange?.(mock)
    msw.use(...handlersOf(core))
  }
}

/** The API's bodies as the app receives and sends them (types only). */
export type * from '../../model/api/wire-types.js'
export type * from '../../core/overrides/types.js'
export type { FreshMockOptions as MockOptions } from '../fresh-mock.js'
export { InvalidOverrideError } from '../../core/overrides/answer.js'
