// @ts-check
/**
 * `npm run check:layers`: the layout's rules (docs/architecture.md), checked on the import
 * graph that madge builds from the sources (the files scripts/tsconfig.build.json compiles):
 * - no import cycle between files, nor between top folders (fastapi/'s folders count as one each);
 * - the core and everything below it are web-standard: no `node:` module, no Express, and msw
 *   only in handlers/index.ts, where the core becomes msw's request handlers;
 * - the verifier (verify/) reads the API as data: no msw, no handlers, no core, no host;
 * - the code that runs in the page (browser/, kits/vitest, kits/storybook) imports no Node
 *   module and no Node host.
 * Prints what breaks a rule and exits 1; prints one line and exits 0 otherwise.
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import madge from 'madge'
import ts from 'typescript'

const BUILD_CONFIG = 'scripts/tsconfig.build.json'
/** Folders whose subfolders are units of their own. */
const GROUPS = ['core', 'fastapi', 'handlers', 'kits', 'model', 'server', 'verify']
/** Units that run in every runtime (the browser included): web-standard code only. */
const WEB_STANDARD = ['core', 'factories', 'fastapi', 'handlers', 'model', 'verify/recording']
/** The one file below the hosts that may import msw. */
const MSW_BOUNDARY = 'handlers/index.ts'
/** What the verifier must not load: the mock itself and its hosts. */
const NOT_IN_VERIFY = ['core', 'handlers', 'server', 'browser', 'node', 'kits', 'fastapi/wire']
/** Units that run in the page (the service worker's, Vitest browser mode's, Storybook's). */
const IN_THE_PAGE = ['browser', 'kits/vitest', 'kits/storybook', 'kits']
const NODE_HOSTS = ['node', 'server', 'kits/playwright', 'kits/vite']

const sources = sourceFiles(BUILD_CONFIG)
for (const rule of [...WEB_STANDARD, ...NOT_IN_VERIFY, ...IN_THE_PAGE, ...NODE_HOSTS])
  if (!sources.some((file) => file.startsWith(`${rule}/`)))
    fail([`${BUILD_CONFIG} compiles nothing under ${rule}/: update the rules of scripts/check-layers.mjs`])
const graph = await madge(sources, {
  fileExtensions: ['ts'],
  tsConfig: 'tsconfig.json',
  detectiveOptions: { ts: { skipTypeImports: false } },
})
const imports = graph.obj()
const problems = []

for (const cycle of graph.circular()) problems.push(`file cycle: ${cycle.join(' -> ')}`)

/** A file's unit: its top folder, or its subfolder under a grouping folder (a top-level file is "(root)"). */
const folderOf = (file) => {
  const parts = file.split('/')
  if (parts.length === 1) return '(root)'
  return GROUPS.includes(parts[0]) && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]
}
/**
 * A file's unit in the cycle check: its top folder ("(root)" for a top-level file), but for the
 * FastAPI emulation, whose folders are layers of their own: python/ under everything, the rest
 * above model/.
 */
const topFolderOf = (file) => {
  const parts = file.split('/')
  if (parts.length === 1) return '(root)'
  return parts[0] === 'fastapi' && parts.length > 2 ? `fastapi/${parts[1]}` : parts[0]
}
/** Whether a unit is one of the named ones, or under one of them ('core' names core/instance too). */
const within = (unit, names) => names.some((name) => unit === name || unit.startsWith(`${name}/`))
const folders = new Map()
for (const [file, deps] of Object.entries(imports)) {
  for (const dep of deps) {
    const [from, to] = [topFolderOf(file), topFolderOf(dep)]
    if (from === to) continue
    if (!folders.has(from)) folders.set(from, new Map())
    folders.get(from).set(to, `${file} -> ${dep}`)
  }
}
for (const cycle of folderCycles(folders))
  problems.push(`folder cycle: ${cycle.join(' -> ')} (${folders.get(cycle[0]).get(cycle[1])})`)

for (const file of Object.keys(imports)) {
  const unit = folderOf(file)
  const text = readFileSync(file, 'utf8')
  const packages = [...text.matchAll(/^(?:import|export)[^'"]*from\s*['"]([^'"]+)['"]/gm)].map((match) => match[1])
  if (within(unit, WEB_STANDARD) && !within(unit, ['kits'])) {
    for (const name of packages.filter((name) => /^(node:|express)/.test(name)))
      problems.push(`${file} imports ${name}: ${unit}/ must run in every runtime`)
    if (file !== MSW_BOUNDARY)
      for (const name of packages.filter((name) => name.startsWith('msw')))
        problems.push(`${file} imports ${name}: only ${MSW_BOUNDARY} turns the core into msw handlers`)
  }
  if (IN_THE_PAGE.includes(unit)) {
    for (const name of packages.filter((name) => /^(node:|express|msw\/node|@playwright|vite$)/.test(name)))
      problems.push(`${file} imports ${name}: ${unit}/ runs in the browser`)
    for (const dep of imports[file])
      if (within(folderOf(dep), NODE_HOSTS)) problems.push(`${file} imports ${dep}: ${unit}/ runs in the browser`)
  }
  if (within(unit, ['verify'])) {
    for (const name of packages.filter((name) => name.startsWith('msw')))
      problems.push(`${file} imports ${name}: the verifier must not load msw`)
    for (const dep of imports[file]) {
      const to = folderOf(dep)
      if (within(to, NOT_IN_VERIFY))
        problems.push(`${file} imports ${dep}: the verifier reads the API as data, it runs no mock`)
    }
  }
}

if (problems.length) fail(problems)
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

function fail(problems) {
  console.error(problems.join('\n'))
  process.exit(1)
}

/** The files a tsconfig compiles, relative to the project's root. */
function sourceFiles(configFile) {
  const path = resolve(configFile)
  const { config, error } = ts.readConfigFile(path, ts.sys.readFile)
  if (error) fail([ts.flattenDiagnosticMessageText(error.messageText, '\n')])
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(path), undefined, path)
  const root = `${process.cwd()}/`
  return parsed.fileNames.map((file) => file.replace(root, '')).sort()
}
