/**
 * Where msw 2 and msw 3 differ for the Playwright fixture, in one place. The rest of the kit uses only what
 * both majors export alike: `getResponse`, `passthrough`, `isCommonAssetRequest`, `RequestHandler`, `AnyHandler`.
 * - A handler's own state (a `once` handler's use, a generator's progress) is cleared by `restore()` and
 *   `reset()`: public methods in msw 3, protected ones in msw 2.15, absent in msw 2.12, which has only the
 *   public `isUsed` flag. So each is called where the handler has it, as msw's own handler lists do.
 * - msw 3 exports `isPassthroughResponse`, msw 2 does not: a `passthrough()` answer is recognised by comparing it
 *   with what `passthrough()` returns, which both majors build alike (no internal header is named here).
 */
import { passthrough, type AnyHandler } from 'msw'

/** Drops what a handler kept between requests (a generator resolver's progress), as msw's `resetHandlers()` does. */
export function resetHandler(handler: AnyHandler): void {
  callOwn(handler, 'reset')
}

/** Re-arms a used `{ once: true }` handler, as msw's `restoreHandlers()` does. */
export function restoreHandler(handler: AnyHandler): void {
  if (callOwn(handler, 'restore')) return
  if ('isUsed' in handler) handler.isUsed = false
}

/** Calls the handler's method of that name, if it has one; whether it had. */
function callOwn(handler: AnyHandler, name: 'reset' | 'restore'): boolean {
  const method: unknown = Reflect.get(handler, name)
  if (typeof method !== 'function') return false
  method.call(handler)
  return true
}

const PASSTHROUGH = passthrough()

/** Whether a handler answered with `passthrough()`: the answer has that response's status and headers. */
export function isPassthrough(response: Response): boolean {
  if (response.status !== PASSTHROUGH.status || response.statusText !== PASSTHROUGH.statusText) return false
  for (const [name, value] of PASSTHROUGH.headers) if (response.headers.get(name) !== value) return false
  return true
}
