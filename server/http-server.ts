import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The base URL a listening server answers on, e.g. `http://127.0.0.1:4010` (an IPv6 address in brackets). */
export function serverUrl(server: Server): string {
  const { address, port } = server.address() as AddressInfo
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`
}

/**
 * Stops accepting connections and ends the open ones, busy or idle: `close()` alone would wait for
 * every request under way (a streamed export, a slow upstream) to finish.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
