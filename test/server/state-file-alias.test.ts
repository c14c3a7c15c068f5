/**
 * One state file, however it is named: a symbolic link to it (made before the file exists, or after),
 * or a path through a linked folder, shares the file's lock and log. Two servers on two spellings of one
 * file are refused, and what is written through a link is there for a server on the file itself.
 */
import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { bulkAdd, startTestServer, valuesOf } from '../support/server.js'

const folder = mkdtempSync(join(tmpdir(), 'acm-state-alias-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

it('refuses a second server on a link to the state file, before and after the file exists', async () => {
  const stateFile = join(folder, 'state.json')
  const alias = join(folder, 'alias.json')
  symlinkSync('state.json', alias) // dangling: the file is not written yet
  const first = await startTestServer({ stateFile })
  try {
    await expect(startTestServer({ stateFile: alias })).rejects.toThrow(/in use by another agent-console-mock server/)
    expect((await bulkAdd(first, ['written'])).status).toBe(201)
    await expect(startTestServer({ stateFile: alias })).rejects.toThrow(/in use/)
  } finally {
    await first.close()
  }
})

it('keeps what was written through a link in the file itself, and leaves the link a link', async () => {
  const stateFile = join(folder, 'kept.json')
  const alias = join(folder, 'kept-alias.json')
  symlinkSync(stateFile, alias)
  const values = Array.from({ length: 10 }, (_, i) => `through the link ${i}`)
  const viaAlias = await startTestServer({ stateFile: alias })
  for (const value of values) expect((await bulkAdd(viaAlias, [value])).status).toBe(201)
  await viaAlias.close()
  expect(lstatSync(alias).isSymbolicLink(), 'the link is still a link').toBe(true)

  const direct = await startTestServer({ stateFile })
  try {
    expect([...valuesOf(direct)]).toEqual(expect.arrayContaining(values))
  } finally {
    await direct.close()
  }
})

it('finds the same lock through a linked folder', async () => {
  const real = join(folder, 'real')
  mkdirSync(real)
  symlinkSync(real, join(folder, 'linked'))
  const first = await startTestServer({ stateFile: join(real, 'state.json') })
  try {
    await expect(startTestServer({ stateFile: join(folder, 'linked', 'state.json') })).rejects.toThrow(/in use/)
  } finally {
    await first.close()
  }
})
