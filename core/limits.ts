/**
 * The core's default bounds, in a module of their own so that what shows them (the CLI's --help) loads no core.
 */

/** The default body size limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** How many session worlds are kept; the least recently used is dropped past it. */
export const DEFAULT_SESSION_LIMIT = 100
