import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './app.js'

/** The ```ts blocks of a section of `doc`: from `heading` to the next heading outside a code block. */
function tsBlocks(doc: string, heading: string): string[] {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n')
  const start = lines.indexOf(heading)
  if (start < 0) throw new Error(`${doc} has no heading "${heading}"`)
  const blocks: string[] = []
  // Outside a code block: undefined; in a ts block, its lines so far; in another block: 'other'.
  let fence: string[] | 'other' | undefined
  for (const line of lines.slice(start + 1)) {
    if (fence === undefined) {
      if (/^#{1,6} /.test(line)) break
      if (line.startsWith('```')) fence = line === '```ts' ? [] : 'other'
    } else if (line.startsWith('```')) {
      if (fence !== 'other') blocks.push(`${fence.join('\n')}\n`)
      fence = undefined
    } else if (fence !== 'other') fence.push(line)
  }
  return blocks
}

/**
 * A ```ts block of a Markdown file of the repository (`doc`, e.g. `docs/testing-kits.md`), read at test time so
 * that the test breaks when the example does: the first under `heading`, or the first there whose first line is
 * `// <file>`.
 */
export function docExample(doc: string, heading: string, file?: string): string {
  const blocks = tsBlocks(doc, heading)
  const found = file ? blocks.find((block) => block.startsWith(`// ${file}\n`)) : blocks[0]
  if (found === undefined) throw new Error(`${doc} has no ts block${file ? ` for ${file}` : ''} under "${heading}"`)
  return found
}

/** A ```ts block of the README (see {@link docExample}). */
export const readmeExample = (heading: string, file?: string): string => docExample('README.md', heading, file)
