import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { expect } from 'vitest'

/**
 * What a state file and its log hold on disk right now, read independently of the server's own
 * reader: the snapshot must parse whole; the log's lines must all be whole but those of its last
 * flush (`<sha256/16 of position, flush, json> <flush> <json>`), which a kill may cut short. `values` are the values of
 * both (a log a compaction left behind holds values its snapshot has too: a union, not a replay).
 */
export function readDisk(stateFile: string, keep: (value: string) => boolean) {
  let text: string | undefined
  try {
    text = readFileSync(stateFile, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const values = new Set<string>()
  if (text !== undefined) {
    let state: { format?: string; world?: { values?: Array<{ value: string }> } }
    try {
      state = JSON.parse(text)
    } catch (error) {
      throw new Error(`the state file on disk is torn (${text.length} characters): ${(error as Error).message}`)
    }
    expect(state.format, 'the state file is a state file').toBe('agent-console-mock/state')
    for (const { value } of state.world!.values!) if (keep(value)) values.add(value)
  }
  const { lines, cut } = readLogLines(`${stateFile}.log`)
  for (const { json } of lines) {
    const change = JSON.parse(json) as { stored?: string; records?: Array<{ value: string }> }
    if (change.stored === 'values') for (const { value } of change.records!) if (keep(value)) values.add(value)
  }
  return { snapshot: text !== undefined, logLines: lines.length, cut, values }
}

/** The whole lines of a log, and how many lines of its last flush are cut short (bad lines elsewhere fail). */
function readLogLines(path: string): { lines: Array<{ flush: number; json: string }>; cut: number } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], cut: 0 }
    throw error
  }
  const raw = text.split('\n')
  const tail = raw.pop()!
  const lines = raw.map((line, position) => {
    const match = /^([0-9a-f]{16}) (\d+) (.*)$/s.exec(line)
    const checked = `${position} ${match?.[2]} ${match?.[3]}`
    const whole = match && createHash('sha256').update(checked).digest('hex').startsWith(match[1]!)
    return whole ? { flush: Number(match[2]), json: match[3]! } : undefined
  })
  const bad = lines.indexOf(undefined)
  const good = (bad === -1 ? lines : lines.slice(0, bad)) as Array<{ flush: number; json: string }>
  if (bad !== -1) {
    const last = good.at(-1)?.flush ?? 0
    const later = lines.slice(bad).filter((line) => line !== undefined && line.flush > last + 1)
    expect(later, 'only lines of the last flush may be cut short').toEqual([])
  }
  return { lines: good, cut: (bad === -1 ? 0 : lines.length - bad) + (tail === '' ? 0 : 1) }
}
