import { MOCK_OPTION_NAMES, type MockOptions } from '../../core/instance/handle.js'
import { checkOptionNames } from '../../core/option-names.js'

/** The `mockOptions` of the Playwright fixture: the mock's world, profile and answers in every test. */
export interface PlaywrightMockOptions extends MockOptions {
  /** Milliseconds added before every API answer. @default 0 */
  delayMs?: number
}

/** Every option the fixture's `mockOptions` takes. */
const FIXTURE_OPTION_NAMES = [...MOCK_OPTION_NAMES, 'delayMs'] as const satisfies ReadonlyArray<
  keyof PlaywrightMockOptions
>

/** Fails the type check when an option is added to {@link PlaywrightMockOptions} but not to the list above. */
type Unlisted = Exclude<keyof PlaywrightMockOptions, (typeof FIXTURE_OPTION_NAMES)[number]>
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true

/**
 * The fixture's `mockOptions`, checked before the world is seeded: a misspelt name (`sed`) or one of another entry's
 * (`baseUrl`: the fixture answers the page's `/v1/...` requests on every origin) was ignored without a word.
 * @throws TypeError naming the unknown options and listing the known ones
 */
export function checkMockOptions(options: PlaywrightMockOptions): void {
  void everyOptionListed
  checkOptionNames('agent-console-mock/playwright mockOptions', options, FIXTURE_OPTION_NAMES)
}
