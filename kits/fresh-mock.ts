import { createCore, type Core } from '../handlers/app.js'
import { seedInstance, type MockHandle, type MockOptions } from '../core/instance/handle.js'
import type { MockInstance } from '../core/instance/instance.js'

/** What a host that gives every test (or story) a world of its own is given. */
export interface FreshMockOptions extends MockOptions {
  /** Milliseconds added before every API answer. @default 0 */
  delayMs?: number
}

/**
 * A mock for one test or story of a page (Vitest browser mode, Storybook): a new instance seeded from
 * the options, with their starting scenarios, wrapped by the host (`wrap`), and the core that answers
 * the page's `/v1/...` and `/__mock/...` requests from it. The instance's world is a copy-on-write fork
 * of the seed's shared base, so a fresh one per test costs about what a reset would, and nothing one
 * test or story wrote (records, overrides, snapshots, the clock) reaches the next.
 */
export async function freshMock<Mock extends MockHandle>(
  options: FreshMockOptions,
  wrap: (instance: MockInstance) => Mock,
): Promise<{ mock: Mock; core: Core }> {
  const mock = wrap(await seedInstance(options))
  const core = createCore({
    instance: mock.instance,
    profile: mock.profile,
    jwtSecret: mock.jwtSecret,
    claim: 'api',
    delayMs: options.delayMs,
    scenarios: options.scenarios,
    openapi: options.openapi,
  })
  return { mock, core }
}
