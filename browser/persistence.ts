import type { MockInstance } from '../core/instance/instance.js'

/**
 * Keeps an instance's world in `localStorage` under `key`: restored now if a valid state is
 * there, and saved after each answer that changed it. Written on every change rather than
 * on `unload` (which browsers may skip), so a reload at any moment finds the last write.
 */
export async function persistInLocalStorage(instance: MockInstance, key: string) {
  const stored = localStorage.getItem(key)
  if (stored) {
    try {
      await instance.importState(stored)
    } catch (error) {
      console.warn(
        `[agent-console-mock] The world kept under "${key}" cannot be read and was ignored: ${(error as Error).message}`,
      )
    }
  }
  let saved = instance.stateVersion
  let enabled = true
  return {
    save() {
      if (!enabled || instance.stateVersion === saved) return
      try {
        localStorage.setItem(key, instance.exportState())
        saved = instance.stateVersion
      } catch (error) {
        enabled = false
        console.warn(
          `[agent-console-mock] The world is too large to keep in localStorage (${(error as Error).message}); it will not survive a reload.`,
        )
      }
    },
    forget() {
      localStorage.removeItem(key)
      saved = instance.stateVersion
    },
  }
}
