import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'

/** scripts/test-platform.sh's arguments: a mistake is refused at once, before the copy and its `npm ci`. */
const script = resolve(import.meta.dirname, '../../scripts/test-platform.sh')
const platform = (...args: string[]) => spawnSync('bash', [script, ...args], { encoding: 'utf8' })

it.each([
  [['3', 'current', 'unit', '--then', '24'], 'no tier to run on Node 24'],
  [['3', 'current', 'unit', '--then'], '--then needs a Node and tiers'],
  [['3', 'current', '--then', '24', 'unit'], 'no tier to run on Node current'],
  [['3', 'current', 'unit', '--then', '24', '--then', '22', 'unit'], 'no tier to run on Node 24'],
  [
    ['3', 'current', 'unit', '--then', 'unit', 'msw'],
    '<node> is current, a node binary\'s path or a major, not "unit"',
  ],
])('refuses %j with a usage line, before copying the project', (args, message) => {
  const { status, stdout, stderr } = platform(...args)
  expect(stderr).toContain(`test-platform: ${message}\nusage: bash scripts/test-platform.sh`)
  expect(stdout).not.toContain('Copying')
  expect(status).toBe(2)
})

it('installs a Node major only: anything else is refused with a usage line', () => {
  const install = resolve(import.meta.dirname, '../../scripts/node-from-registry.sh')
  for (const wanted of ['', 'lts', '22.1', '../22']) {
    const { status, stderr } = spawnSync('bash', [install, wanted], { encoding: 'utf8' })
    expect(stderr).toBe('node-from-registry: usage: bash scripts/node-from-registry.sh <node major>, e.g. 22\n')
    expect(status).toBe(1)
  }
})
