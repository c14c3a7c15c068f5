import { readFileSync } from 'node:fs'

/** The package's version, read from its package.json (two folders up from source, three from dist). */
export function packageVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string
        version?: string
      }
      if (manifest.name === 'agent-console-mock' && manifest.version) return manifest.version
    } catch {
      // not this folder: try the next one
    }
  }
  return '0.0.0'
}
