import type { IncomingMessage, ServerResponse } from 'node:http'

/** Where the server writes: one line per request (when `info` is there), and errors with their stack. */
export interface Logger {
  info?(message: string): void
  error(message: string, error?: unknown): void
}

/** Writes nothing but errors. */
export const quietLogger = (base: Logger = console): Logger => ({
  error: (message, error) => base.error(message, error),
})

/**
 * Logs one line when the answer is done: method, path with query, status, duration.
 * `undefined` for a logger without `info`, so a quiet server pays nothing per request.
 */
export function requestLogger(logger: Logger): ((req: IncomingMessage, res: ServerResponse) => void) | undefined {
  const info = logger.info?.bind(logger)
  if (!info) return undefined
  return (req, res) => {
    const started = process.hrtime.bigint()
    res.on('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const status = res.writableFinished ? String(res.statusCode) : 'closed'
      info(`${req.method} ${req.url} ${status} ${ms.toFixed(1)}ms`)
    })
  }
}
