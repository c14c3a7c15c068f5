/** The part of `fs-native-extensions` (which ships no types) that the state file's lock uses. */
declare module 'fs-native-extensions' {
  /**
   * Takes the kernel's lock on an open file without waiting: exclusive unless `shared`.
   * @returns false when another open file holds it
   */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean
}
