/**
 * Why a `fetch` could not reach a server, in words that say what to check (connection refused: is the server
 * running on that port?), or the socket error's own code or message.
 */
export function whyUnreachable(error: unknown): string {
  const code = errorCode(error)
  return CONNECTION_ERRORS[code] ?? code
}

/** Node's fetch hides the socket error in `cause` (sometimes in an AggregateError). */
function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; errors?: Array<{ code?: string }>; message?: string } }).cause
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message ?? String(error)
}

const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running on that port?',
  ENOTFOUND: 'host not found: check the base URL',
  EAI_AGAIN: 'host name lookup failed: check the base URL and the network',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the server closed the connection',
}
