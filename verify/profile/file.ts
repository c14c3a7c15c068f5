import { readFileSync } from 'node:fs'
import { resolveProfile, type Profile } from '../../model/profile.js'

/**
 * A profile file (docs/profile.md), as `verify --profile-out` writes it, read and resolved for the server and
 * `import` alike.
 * @throws Error saying which file, what is wrong with it, and what to give instead
 */
export function readProfileFile(path: string): Profile {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new Error(`cannot read the profile ${path}: ${(error as Error).message}`)
  }
  let settings: unknown
  try {
    settings = JSON.parse(text)
  } catch (error) {
    throw new Error(
      `the profile ${path} is not JSON (${(error as Error).message}): give a JSON object of settings, as verify --profile-out writes it (docs/profile.md).`,
    )
  }
  try {
    return resolveProfile(settings as Parameters<typeof resolveProfile>[0])
  } catch (error) {
    throw new Error(`the profile ${path}: ${(error as Error).message}`)
  }
}
