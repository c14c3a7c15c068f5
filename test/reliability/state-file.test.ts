import fc from 'fast-check'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startTestServer } from '../support/server.js'
import { fuzzParameters, timeoutFor } from './support/fuzz.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-reliability-state-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Starting the server on this file must fail with a message naming it, and leave it byte for byte. */
async function expectRefused(stateFile: string, message: RegExp) {
  const before = readFileSync(stateFile)
  await expect(startTestServer({ stateFile })).rejects.toThrow(message)
  expect(readFileSync(stateFile).equals(before), 'left untouched').toBe(true)
}

it(
  'refuses a state file cut short anywhere, or with a byte changed, and leaves it untouched',
  async () => {
    const source = join(folder, 'source.json')
    const seeded = await startTestServer({ seed: 39, personasPerTeam: 2, stateFile: source })
    const dimension = seeded.sessions.primary.fixtures.dimensions[0]!.id
    await fetch(`${seeded.url}/v1/demographics/${dimension}/values/bulk`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${seeded.sessions.primary.fixtures.tokens.super_admin}`,
        'content-type': 'application/json',
      },
      body: '{"values":[{"value":"whole","metadata":{"__proto__":1}}]}',
    })
    await seeded.close()
    const whole = readFileSync(source, 'utf8')
    const damaged = join(folder, 'damaged.json')
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: whole.length - 1 }), fc.constantFrom('cut', 'flip'), async (at, how) => {
        const text =
          how === 'cut'
            ? whole.slice(0, at)
            : whole.slice(0, at) + String.fromCharCode(whole.charCodeAt(at) ^ 0x20) + whole.slice(at + 1)
        writeFileSync(damaged, text)
        // A start that took the last damaged file began a log naming it: this one is a state file of its own.
        rmSync(`${damaged}.log`, { force: true })
        const running = await startTestServer({ stateFile: damaged }).catch((error: Error) => error)
        if (running instanceof Error) {
          expect(running.message).toMatch(/damaged\.json is not a usable state file: .+\. It was left untouched/)
          expect(readFileSync(damaged, 'utf8')).toBe(text)
        } else {
          // A flip that still parses and fits (a letter's case in a name): a complete state all the same.
          await running.close()
          expect(JSON.parse(readFileSync(damaged, 'utf8')).format).toBe('agent-console-mock/state')
        }
      }),
      fuzzParameters(25, 7_011),
    )
  },
  timeoutFor(25, 200),
)

it.each([
  ['an empty file', '', /the state is not valid JSON/],
  [
    'random bytes',
    Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 151 + 7) % 256)),
    /the state is not valid JSON/,
  ],
  ['a JSON array', '[]', /this is not an agent-console-mock state/],
  [
    'another version',
    '{"format":"agent-console-mock/state","version":2}',
    /the state does not fit the schemas: version/,
  ],
  [
    'records that do not fit',
    '{"format":"agent-console-mock/state","version":1,"seed":1,"personasPerTeam":1,"world":{"teams":[{"id":1}],"personas":[],"dimensions":[],"values":[],"policies":[],"rules":[]}}',
    /the state does not fit the schemas: world\.teams\.0/,
  ],
  [
    'a JSON document of another program',
    '{"compilerOptions":{"strict":true}}',
    /this is not an agent-console-mock state/,
  ],
])('refuses %s with a clear error naming the file, and leaves it untouched', async (_, content, message) => {
  const stateFile = join(folder, `refused-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(stateFile, content)
  await expectRefused(
    stateFile,
    new RegExp(
      `${stateFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a usable state file: ${message.source}.*left untouched`,
    ),
  )
})

it('refuses a directory, or a file in a folder that does not exist, with a message naming it', async () => {
  const directory = join(folder, 'a-directory')
  mkdirSync(directory)
  await expect(startTestServer({ stateFile: directory })).rejects.toThrow(
    `${directory} cannot be read as a state file: EISDIR`,
  )
  const nowhere = join(folder, 'missing', 'state.json')
  await expect(startTestServer({ stateFile: nowhere })).rejects.toThrow(`${nowhere} cannot be written: ENOENT`)
  expect(existsSync(join(folder, 'missing'))).toBe(false)
  // Reading a FIFO would wait for a writer for ever: the start hung, listening to nothing.
  // A FIFO lock opens at once and locks nothing: two servers would share the file.
  for (const fifo of [
    join(folder, 'fifo.json'),
    join(folder, 'fifo-log.json.log'),
    join(folder, 'fifo-lock.json.lock'),
  ]) {
    execFileSync('mkfifo', [fifo])
    const stateFile = fifo.replace(/\.(log|lock)$/, '')
    await expect(startTestServer({ stateFile })).rejects.toThrow(`${fifo} is a FIFO, not a file: pass a --state-file`)
  }
  await expect(startTestServer({ stateFile: ' ' })).rejects.toThrow('stateFile is empty: name the file')
})

it('removes the temporary files killed writers left behind, and only those', async () => {
  const stateFile = join(folder, 'leftover.json')
  const dead = join(folder, 'leftover.json.999999.tmp')
  // An id still in use (a killed server nobody reaped keeps its id): with the lock held, nobody else writes it.
  const reused = join(folder, `leftover.json.${process.ppid}.tmp`)
  const unrelated = join(folder, 'leftover.json.notes.tmp')
  for (const file of [dead, reused, unrelated]) writeFileSync(file, '{"half": ')
  const running = await startTestServer({ stateFile })
  await running.close()
  expect([existsSync(dead), existsSync(reused), existsSync(unrelated)]).toEqual([false, false, true])
  rmSync(unrelated)
})
