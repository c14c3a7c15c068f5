/** verify's bounds on time, in a module of their own so that what shows them (`verify --help`) loads no verifier. */

/** Milliseconds a request may take unless told otherwise: generous for a staging server, short for a hung one. */
export const DEFAULT_TIMEOUT_MS = 10_000
/** Milliseconds a whole run may take unless told otherwise (a run against a local server takes well under one second). */
export const DEFAULT_DEADLINE_MS = 120_000
