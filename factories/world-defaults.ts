/** The world a mock seeds unless told otherwise; a module of its own, so that the CLI's --help loads no Faker. */
export const DEFAULT_SEED = 1
export const DEFAULT_PERSONAS_PER_TEAM = 60
