#!/usr/bin/env node
/**
 * `npm test`: runs every tier in turn, whatever an earlier one did, then prints one line per tier
 * and the closing line `N passed, N failed`; exits 1 when a tier failed.
 *
 *   node scripts/test-all.mjs                      typecheck, lint, unit, node, process, browser, e2e
 *   node scripts/test-all.mjs unit node            only these tiers (npm scripts test:<tier>, or typecheck)
 *   node scripts/test-all.mjs unit node --label "msw 2.12.0"   names them "unit (msw 2.12.0)", ...
 *   node scripts/test-all.mjs --summary <file>     runs nothing: the summary of the results recorded in <file>
 *
 * With TEST_ALL_RESULTS=<file> in the environment, each tier's result is also appended to that
 * file (`name<TAB>passed|failed<TAB>seconds`), so that CI can close with one summary of several runs.
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, readFileSync } from 'node:fs'

const TIERS = {
  typecheck: 'typecheck',
  lint: 'lint',
  unit: 'test:unit',
  node: 'test:node',
  process: 'test:process',
  msw: 'test:msw',
  browser: 'test:browser',
  e2e: 'test:e2e',
  fixture: 'test:fixture',
  consumer: 'test:consumer',
}

const args = process.argv.slice(2)
const option = (name) => {
  const at = args.indexOf(name)
  if (at < 0) return undefined
  const [, value] = args.splice(at, 2)
  if (value === undefined) usage(`${name} needs a value`)
  return value
}
function usage(message) {
  console.error(
    `test-all: ${message}\nusage: node scripts/test-all.mjs [${Object.keys(TIERS).join('|')} ...] [--label <text>] | --summary <file>`,
  )
  process.exit(2)
}

const summaryFile = option('--summary')
if (summaryFile) {
  const lines = readFileSync(summaryFile, 'utf8').split('\n').filter(Boolean)
  summarize(
    lines.map((line) => {
      const [name, status, seconds] = line.split('\t')
      return { name, passed: status === 'passed', seconds: Number(seconds), detail: status === 'passed' ? '' : status }
    }),
  )
}

const label = option('--label')
/** Subsets of other tiers, run on the other platforms: `msw` of `node`, `fixture` of `e2e`, `consumer` of `process`. */
const ON_OTHER_PLATFORMS = ['msw', 'fixture', 'consumer']
const chosen = args.length > 0 ? args : Object.keys(TIERS).filter((tier) => !ON_OTHER_PLATFORMS.includes(tier))
for (const tier of chosen) if (!(tier in TIERS)) usage(`unknown tier "${tier}"`)

// The npm that runs this script (npm_execpath) runs the tiers too; plain `npm` otherwise.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm']
const results = []
for (const tier of chosen) {
  const name = label ? `${tier} (${label})` : tier
  console.log(`\n━━ ${name}: npm run ${TIERS[tier]}\n`)
  const started = performance.now()
  const run = spawnSync(npm[0], [...npm.slice(1), 'run', TIERS[tier]], { stdio: 'inherit' })
  const seconds = (performance.now() - started) / 1000
  const passed = run.status === 0
  const detail = passed
    ? ''
    : run.error
      ? `could not run: ${run.error.message}`
      : run.signal
        ? `killed by ${run.signal}`
        : `exit ${run.status}`
  results.push({ name, passed, seconds, detail })
  if (process.env.TEST_ALL_RESULTS)
    appendFileSync(process.env.TEST_ALL_RESULTS, `${name}\t${passed ? 'passed' : detail}\t${seconds.toFixed(1)}\n`)
}
summarize(results)

function summarize(results) {
  const width = Math.max(...results.map(({ name }) => name.length), 4)
  console.log('\n━━ Summary\n')
  for (const { name, passed, seconds, detail } of results) {
    console.log(
      `  ${passed ? 'passed' : 'FAILED'}  ${name.padEnd(width)}  ${seconds.toFixed(1).padStart(6)} s${detail ? `  (${detail})` : ''}`,
    )
  }
  const failed = results.filter(({ passed }) => !passed).length
  console.log('')
  console.log(`${results.length - failed} passed, ${failed} failed`)
  process.exit(failed > 0 || results.length === 0 ? 1 : 0)
}
