/**
 * Where the CLI's servers listen unless told otherwise, in a module of its own so that what shows it (--help) loads
 * no server.
 */
export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'
/** The proxy's (`agent-console-mock proxy`). */
export const DEFAULT_PROXY_PORT = 4011
