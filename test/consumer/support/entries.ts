import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { join } from 'node:path'

/** Every entry of the package, each used as an app uses it, so that tsc reads each entry's declarations. */
const ENTRIES = `
import { createHandlers, type Persona } from 'agent-console-mock'
import { createMockServer, type MockServer } from 'agent-console-mock/node'
import { startMockWorker, type OperationOverride } from 'agent-console-mock/browser'
import { test as networkTest, expect, type MockFixtureOptions } from 'agent-console-mock/playwright'
import { defineConfig } from '@playwright/test'
import { test as serverTest } from 'agent-console-mock/playwright/server'
import { test as vitestTest } from 'agent-console-mock/vitest'
import { agentConsoleMock, mockServiceWorker } from 'agent-console-mock/vite'
import { mockBeforeEach, setupStoryWorker, type StoryMockParameters } from 'agent-console-mock/storybook'
import { createMockApp } from 'agent-console-mock/server'
import { verify } from 'agent-console-mock/contract'

export const uses = [createHandlers, createMockServer, startMockWorker, networkTest, serverTest, vitestTest, expect]
export const plugins = [agentConsoleMock({ seed: 1 }), mockServiceWorker()]
export const beforeEach = mockBeforeEach({ seed: 1 })
export const storyWorker = setupStoryWorker
export const story: StoryMockParameters = { overrides: { list_personas: { error: 'forbidden' } } }
export const empty: OperationOverride<'list_personas'> = { status: 200, body: { results: [], total: 0 } }
export const start = async (): Promise<MockServer> => createMockServer({ seed: 1 })
export const app = createMockApp
export const check = verify
export type Row = Persona
// The fixture's options in playwright.config.ts, as docs/verification.md shows them.
export const playwrightConfig = defineConfig<MockFixtureOptions>({
  use: { recordContract: 'test-results/contract.json', mockOptions: { seed: 2 } },
})
`

/**
 * Writes `entries/` with a Node test project's tsconfig (Node types, DOM for the page kits) and `skipLibCheck`
 * off, so tsc checks every declaration file the entries bring in; answers the config's name.
 */
export function writeEntriesCheck(project: string): string {
  mkdirSync(join(project, 'entries'), { recursive: true })
  writeFileSync(join(project, 'entries/all.ts'), ENTRIES)
  const config = 'tsconfig.entries.json'
  writeFileSync(
    join(project, config),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'nodenext',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      include: ['entries'],
    }),
  )
  return config
}

/**
 * tsc's errors, less those inside Storybook's own declarations: they name `react` and `@storybook/react`,
 * which an html-vite Storybook does not install, and any Storybook 10 app sees them with `skipLibCheck` off.
 */
export const errorsOutsideStorybook = (output: string) =>
  output.split('\n').filter((line) => /error TS\d+/.test(line) && !line.startsWith('node_modules/storybook/'))

/** The specifiers a declaration file imports (`import`/`export ... from`, `import(...)`, `reference types`). */
const IMPORTED = /(?:^(?:import|export)[^;'"]*?\sfrom\s*|\bimport\(\s*|<reference types=)['"]([^'"]+)['"]/gm

/** The package a bare specifier names: `@scope/name` or `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')

/**
 * What the installed package's declarations import that it declares neither as a dependency nor as a peer (nor as
 * a peer's `@types/`), as `file: specifier`: an app without that package fails to type-check the entry with
 * `skipLibCheck` off (TS2307), and nothing tells it to install it. Comments are left out: examples name packages.
 */
export function undeclaredImports(project: string): string[] {
  const root = join(project, 'node_modules/agent-console-mock')
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, object | undefined>
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ])
  const files = (readdirSync(join(root, 'dist'), { recursive: true }) as string[]).filter((file) =>
    file.endsWith('.d.ts'),
  )
  return files.flatMap((file) => {
    const text = readFileSync(join(root, 'dist', file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
    return [...text.matchAll(IMPORTED)]
      .map((match) => match[1] ?? '')
      .filter((specifier) => !specifier.startsWith('.') && !isBuiltin(specifier))
      .filter((specifier) => !declared.has(packageOf(specifier)) && !declared.has(`@types/${packageOf(specifier)}`))
      .map((specifier) => `${file}: ${specifier}`)
  })
}
