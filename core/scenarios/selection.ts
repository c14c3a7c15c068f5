import type { Claims } from '../../model/auth/claims.js'
import type { OperationName } from '../../model/api/routes.js'
import type { Profile, ProfileOptions } from '../../model/profile.js'
import type { Scenario, ScenarioOverride } from './index.js'

/** What scenarios leave besides data, faults and the clock: their names, profile settings, overrides, claims. */
export interface ScenarioEffects {
  readonly names: readonly string[]
  profile: ProfileOptions | undefined
  readonly overrides: Partial<Record<OperationName, ScenarioOverride[]>>
  readonly claims: Array<(claims: Claims) => Claims>
  /**
   * The profile requests are answered with under these effects, by the core's profile it was merged into:
   * resolved once per selection. Weakly keyed, so a core's profile is not held by the effects it met.
   */
  readonly resolvedProfileCache: WeakMap<Profile, Profile>
}

/** The scenarios of one instance: those selected now, and those a reset selects again. */
export class ScenarioSelection {
  /** What the scenarios selected now left besides data, faults and the clock; undefined when none is selected. */
  selected: ScenarioEffects | undefined
  /** The scenarios selected at start (`--scenario`, a host's `scenario` option): what a reset applies again. */
  atStart: readonly Scenario[] = []

  /** The names of the scenarios selected now, in the order applied. */
  get names(): readonly string[] {
    return this.selected?.names ?? []
  }
}
