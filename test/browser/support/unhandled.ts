import { vi } from 'vitest'

/** A same-origin request that no handler answers and that msw does not take for an asset. */
export const NOT_THE_API = '/not-the-api'

/** msw's console output during `run`: it prints `[MSW] Warning: ...` there. Restore the spies after. */
export async function printed(run: () => Promise<unknown>): Promise<string> {
  const lines: unknown[] = []
  vi.spyOn(console, 'warn').mockImplementation((...args) => void lines.push(...args))
  vi.spyOn(console, 'error').mockImplementation((...args) => void lines.push(...args))
  await run()
  return lines.join('\n')
}
