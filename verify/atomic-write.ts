import { open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * A file replaced whole: written to `<file>.<pid>.tmp`, flushed to disk, renamed over the file,
 * and the rename flushed with its folder. A kill at any moment leaves the old file or the new one,
 * never a torn one, and a crash after the write cannot take the rename back. The standalone
 * server's state file (server/persistence/) and the importer's write through here; it is in
 * verify/ because the importer may not import server/, and the server may import verify/.
 */
const temporaryOf = (path: string): string => `${path}.${process.pid}.tmp`

/** Writes `path` whole or not at all (see above). */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  await installFile(await prepareFile(path, data), path)
}

/**
 * The first half of {@link writeFileAtomically}: writes `data` to the temporary file of `path` and
 * flushes it to disk; removes it on failure.
 * @returns the temporary file, for {@link installFile}
 */
export async function prepareFile(path: string, data: string | Uint8Array): Promise<string> {
  const temporary = temporaryOf(path)
  try {
    const file = await open(temporary, 'w')
    try {
      await file.writeFile(data)
      await file.sync()
    } finally {
      await file.close()
    }
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  return temporary
}

/**
 * The second half: renames a prepared file over `path` (removing it when the rename fails) and
 * flushes the folder, so the rename survives a crash.
 */
export async function installFile(temporary: string, path: string): Promise<void> {
  try {
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  await syncFolder(path)
}

/** Flushes the folder of `path` (its entries: a rename, a new file). */
export async function syncFolder(path: string): Promise<void> {
  const folder = await open(dirname(path), 'r')
  try {
    await folder.sync()
  } finally {
    await folder.close()
  }
}
