import { stat } from 'node:fs/promises'

/**
 * Refuses a path that holds something other than a file: a FIFO would make reading it wait for a writer for ever,
 * a device or a socket would be read as a state. A path that holds nothing yet is fine (it is written).
 */
export async function refuseUnlessRegular(path: string): Promise<void> {
  const found = await stat(path).catch(() => undefined)
  if (!found || found.isFile() || found.isDirectory()) return // a folder is refused by the read, naming EISDIR
  const kind = found.isFIFO() ? 'a FIFO' : found.isSocket() ? 'a socket' : 'a device'
  throw new Error(`${path} is ${kind}, not a file: pass a --state-file that names a file (or one not written yet).`)
}
