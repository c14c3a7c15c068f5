import { readlinkSync, realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'

/** Links followed at most, as the kernel does (ELOOP past it). */
const MAX_LINKS = 40

/**
 * A file's one name: absolute, with every symbolic link followed, also to a file not written yet (a
 * link whose target does not exist). Two servers started on `state.json` and on a link to it must
 * find the same lock, and a write through either must reach the same file: an atomic write renames
 * over the path it is given, and would replace a link with a file of its own.
 */
export function realFilePath(path: string): string {
  let current = resolve(path)
  for (let links = 0; links < MAX_LINKS; links++) {
    try {
      return realpathSync(current)
    } catch {
      // missing, or a link to something missing: follow the link by hand, if it is one
    }
    let target: string
    try {
      target = readlinkSync(current)
    } catch {
      break // not a link: a file not written yet
    }
    current = resolve(dirname(current), target)
  }
  try {
    return join(realpathSync(dirname(current)), basename(current))
  } catch {
    return current // the folder is missing too: the start fails on it with its own message
  }
}
