// @ts-check
/**
 * `npm run check:layers`: the layout's rules (docs/architecture.md), checked on the import
 * graph that madge builds from the sources:
 * - no import cycle between files, nor between folders;
 * - the core and everything below it are web-standard: no `node:` module, no msw, no Express;
 * - the verifier (contract/) reads the API as data: it imports neither msw nor the handlers;
 * - the importer (importer/) reads a server as the verifier does and writes state files: no msw, no handlers, no host;
 * - the hosts that run in the page (hosts/browser, hosts/vitest, hosts/storybook) import no Node module, no Node host.
 * Prints what breaks a rule and exits 1; prints one line and exits 0 otherwise.
 */
import { readFileSync } from 'node:fs'
import madge from 'madge'

const SOURCES = [
  'index.ts',
  'api',
  'auth',
  'contract',
  'core',
  'factories',
  'fastapi',
  'handlers',
  'hosts',
  'importer',
  'mock',
  'model',
  'openapi',
  'pydantic',
  'python',
  'recording',
  'wire',
]
/** Folders that run in every runtime (the browser included): web-standard code only. */
const WEB_STANDARD = [
  'api',
  'auth',
  'core',
  'factories',
  'fastapi',
  'handlers',
  'mock',
  'model',
  'openapi',
  'pydantic',
  'python',
  'recording',
  'wire',
]
const NOT_IN_CONTRACT = ['core', 'handlers', 'hosts', 'wire', 'mock']
/** The importer writes the mock's state files (mock/state.ts), and loads nothing that answers requests. */
const NOT_IN_IMPORTER = ['core', 'handlers', 'hosts', 'wire']
/** Hosts that run in the page (the service worker's, Vitest browser mode's, Storybook's): web-standard code, msw/browser, no Node host. */
const IN_THE_PAGE = ['hosts/browser', 'hosts/vitest', 'hosts/storybook']
const NODE_HOSTS = ['hosts/node', 'hosts/server', 'hosts/playwright', 'hosts/vite']

const graph = await madge(SOURCES, {
  fileExtensions: ['ts'],
  tsConfig: 'tsconfig.json',
  detectiveOptions: { ts: { skipTypeImports: false } },
})
const imports = graph.obj()
const problems = []

for (const cycle of graph.circular()) problems.push(`file cycle: ${cycle.join(' -> ')}`)

/** A file's folder (hosts are one folder each: hosts/node, hosts/server, ...). */
const folderOf = (file) => {
  const parts = file.split('/')
  if (parts.length === 1) return '(root)'
  return parts[0] === 'hosts' ? `hosts/${parts[1]?.replace(/\.ts$/, '')}` : parts[0]
}
const folders = new Map()
for (const [file, deps] of Object.entries(imports)) {
  for (const dep of deps) {
    const [from, to] = [folderOf(file), folderOf(dep)]
    if (from === to) continue
    if (!folders.has(from)) folders.set(from, new Map())
    folders.get(from).set(to, `${file} -> ${dep}`)
  }
}
for (const cycle of folderCycles(folders))
  problems.push(`folder cycle: ${cycle.join(' -> ')} (${folders.get(cycle[0]).get(cycle[1])})`)

for (const file of Object.keys(imports)) {
  const folder = folderOf(file)
  const text = readFileSync(file, 'utf8')
  const packages = [...text.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1])
  if (WEB_STANDARD.includes(folder)) {
    for (const name of packages.filter((name) => /^(node:|msw|express)/.test(name)))
      problems.push(`${file} imports ${name}: ${folder}/ must run in every runtime`)
  }
  if (IN_THE_PAGE.includes(folder)) {
    for (const name of packages.filter((name) =>
      /^(node:|express|msw\/node|@playwright|@msw\/playwright|vite$)/.test(name),
    ))
      problems.push(`${file} imports ${name}: ${folder}/ runs in the browser`)
    for (const dep of imports[file])
      if (NODE_HOSTS.includes(folderOf(dep))) problems.push(`${file} imports ${dep}: ${folder}/ runs in the browser`)
  }
  if (folder === 'contract') {
    for (const name of packages.filter((name) => name.startsWith('msw')))
      problems.push(`${file} imports ${name}: the verifier must not load msw`)
    for (const dep of imports[file])
      if (NOT_IN_CONTRACT.includes(folderOf(dep)))
        problems.push(`${file} imports ${dep}: the verifier reads api/ and model/, not the mock`)
  }
  if (folder === 'importer') {
    for (const name of packages.filter((name) => name.startsWith('msw')))
      problems.push(`${file} imports ${name}: the importer must not load msw`)
    for (const dep of imports[file])
      if (NOT_IN_IMPORTER.includes(folderOf(dep)))
        problems.push(`${file} imports ${dep}: the importer reads a server and writes state files, it runs no mock`)
  }
}

if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}
console.log(`layers: ${Object.keys(imports).length} files, ${folders.size} folders, no cycle, every rule holds`)

/** Every cycle of the folder graph, each once (from its smallest folder name). */
function folderCycles(graph) {
  const cycles = []
  const walk = (start, node, path) => {
    for (const next of graph.get(node)?.keys() ?? []) {
      if (next === start) cycles.push([...path, start])
      else if (!path.includes(next) && next > start) walk(start, next, [...path, next])
    }
  }
  for (const start of graph.keys()) walk(start, start, [start])
  return cycles
}
