import type { NextFunction, Request, Response } from 'express'

/** Where the server writes: one line per request, and errors with their stack. */
export interface Logger {
  info(message: string): void
  error(message: string, error?: unknown): void
}

/** Writes nothing but errors. */
export const quietLogger = (base: Logger = console): Logger => ({ info: () => undefined, error: (message, error) => base.error(message, error) })

/** One line per answered request: method, path with query, status, duration. */
export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint()
    res.on('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const status = res.writableFinished ? String(res.statusCode) : 'closed'
      logger.info(`${req.method} ${req.originalUrl} ${status} ${ms.toFixed(1)}ms`)
    })
    next()
  }
}
