/**
 * The most personas a team may hold: seeded, imported or reset (a state file names no more either). A module of its
 * own, so that what shows it (the CLI's --help) loads no world.
 */
export const MAX_PERSONAS_PER_TEAM = 100_000
