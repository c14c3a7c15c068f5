import { spawnSync } from 'node:child_process'
import { rm, writeFile, readFile } from 'node:fs/promises'
import nodeModule, { createRequire } from 'node:module'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { defineScenario, type Scenario } from '../core/scenarios/index.js'

/** What a `--config` file gives: its scenarios, exported as `scenarios` or in its default export. */
export interface MockConfig {
  scenarios: Scenario[]
}

/**
 * Loads a `--config` file: JavaScript (`.js`, `.mjs`, `.cjs`) is imported as it is; TypeScript
 * (`.ts`, `.mts`, `.cts`) is compiled first, types stripped and not checked (the project's
 * `typescript`, else Node's own stripper), then imported from a temporary
 * `.mjs` file beside it, so its imports resolve as the file's own would.
 * @throws Error saying what is wrong with the file
 * @example const { scenarios } = await loadConfig('mock.config.ts')
 */
export async function loadConfig(file: string): Promise<MockConfig> {
  const path = resolve(file)
  const module = /\.[mc]?ts$/.test(path) ? await importTypeScript(path) : await importModule(path)
  const exported = module.scenarios ?? (module.default as { scenarios?: unknown } | undefined)?.scenarios
  if (!Array.isArray(exported)) {
    throw new Error(
      `${file} exports no scenarios: export const scenarios = [defineScenario({ ... })] (or a default { scenarios })`,
    )
  }
  try {
    return { scenarios: exported.map((scenario) => defineScenario(scenario as Scenario)) }
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`)
  }
}

type ConfigModule = { scenarios?: unknown; default?: unknown }

/** Imports `path`; a failure names `shown`, the file the user wrote (not the compiled copy of a TypeScript one). */
async function importModule(path: string, shown = path): Promise<ConfigModule> {
  try {
    return (await import(pathToFileURL(path).href)) as ConfigModule
  } catch (error) {
    const place = error instanceof SyntaxError && shown === path ? syntaxErrorPlace(path) : ''
    throw new Error(`cannot load ${shown}${place}: ${(error as Error).message}`)
  }
}

/**
 * `:line:column` of a JavaScript file's syntax error, as `node --check` shows it (`<file>:3`, the source line, a
 * caret): an `import()` that fails to parse says what, but not where. '' when it says neither.
 */
function syntaxErrorPlace(path: string): string {
  const { stderr } = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8', timeout: 10_000 })
  return stderr?.startsWith(`${path}:`) ? positionOf({ stack: stderr.slice(path.length) } as Error) : ''
}

async function importTypeScript(path: string): Promise<ConfigModule> {
  const source = await readFile(path, 'utf8').catch((error: Error) => {
    throw new Error(`cannot read ${path}: ${error.message}`)
  })
  const compiled = join(dirname(path), `.${basename(path, extname(path))}.${process.pid}.${Date.now()}.mjs`)
  await writeFile(compiled, stripTypes(source, path))
  try {
    return await importModule(compiled, path)
  } finally {
    await rm(compiled, { force: true })
  }
}

/**
 * The file's JavaScript: compiled by the project's `typescript` where it has a JavaScript API
 * (5 and earlier; 7 is a native compiler whose package exports none), else by Node's own type
 * stripper (Node 22.13 and later).
 */
function stripTypes(source: string, path: string): string {
  const typescript = loadTypeScript(path)
  if (typeof typescript?.transpileModule === 'function') return transpile(typescript, source, path)
  const nodeStripper = (nodeModule as { stripTypeScriptTypes?: (code: string) => string }).stripTypeScriptTypes
  if (nodeStripper) {
    try {
      return nodeStripper(source)
    } catch (error) {
      throw new Error(`${path}${positionOf(error as Error)}: ${(error as Error).message}`)
    }
  }
  // Installing typescript 5 where 7 is would replace the project's own compiler (one package name): not advised.
  const [found, install] = typescript
    ? [`the typescript package found (${typescript.version}) has no JavaScript API`, '']
    : ['no typescript package was found', 'install typescript 5 (npm install --save-dev typescript@5), ']
  throw new Error(`${path} is TypeScript, and ${found}: ${install}use Node 22.13 or later, or write the config as .mjs`)
}

/**
 * `:line:column` of a syntax error Node's stripper reports, as tsc would name it; '' when it says none. Node gives
 * them only in the error's stack, as it shows a script's syntax error: `:4`, the source line, a caret under the
 * column.
 */
function positionOf(error: Error): string {
  const lines = error.stack?.split('\n') ?? []
  const line = /^:(\d+)$/.exec(lines[0] ?? '')?.[1]
  if (line === undefined) return ''
  const caret = lines.find((text) => /^ *\^+ *$/.test(text))
  return caret === undefined ? `:${line}` : `:${line}:${caret.indexOf('^') + 1}`
}

function transpile(typescript: TypeScript, source: string, path: string): string {
  const { outputText, diagnostics = [] } = typescript.transpileModule(source, {
    fileName: path,
    reportDiagnostics: true,
    compilerOptions: { module: typescript.ModuleKind.ESNext, target: typescript.ScriptTarget.ES2022 },
  })
  // Syntax errors only (no type check): without this, the import of the compiled copy would fail
  // with a message about that copy's text.
  const syntax = diagnostics.find((diagnostic) => diagnostic.category === typescript.DiagnosticCategory.Error)
  if (syntax) throw new Error(syntaxError(typescript, syntax, path))
  return outputText
}

type TypeScript = typeof import('typescript')

/** `file.ts:3:22: Expression expected.`, as tsc words a diagnostic. */
function syntaxError(typescript: TypeScript, diagnostic: import('typescript').Diagnostic, path: string): string {
  const message = typescript.flattenDiagnosticMessageText(diagnostic.messageText, ' ')
  if (!diagnostic.file || diagnostic.start === undefined) return `${path}: ${message}`
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
  return `${path}:${line + 1}:${character + 1}: ${message}`
}

/** The project's `typescript` (resolved from the config file), else this package's own, if any. */
function loadTypeScript(path: string): TypeScript | undefined {
  for (const from of [path, import.meta.url]) {
    try {
      return createRequire(from)('typescript') as TypeScript
    } catch {}
  }
  return undefined
}
