import { once } from 'node:events'
import { createServer, type AddressInfo, type Socket } from 'node:net'

/** A target that accepts connections and never answers, counting those still open on its side. */
export interface SilentTarget {
  url: string
  /** Connections the target holds open now. */
  open(): number
  close(): void
}

export async function startSilentTarget(): Promise<SilentTarget> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    // Read, so that the client's leaving (its FIN) is seen; the target never answers.
    socket.resume()
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => sockets.size,
    close() {
      for (const socket of sockets) socket.destroy()
      server.close()
    },
  }
}
