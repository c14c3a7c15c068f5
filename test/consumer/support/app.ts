import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '../../..')

/**
 * What the app installs beside the tarball: its own msw (the peer), and what a team using every entry has
 * (the optional peers, and the types the entries' declarations name). At the versions this checkout runs on,
 * read from its node_modules, so the app follows the platform: msw 2 and Vitest 4 on Node 20, msw 3 where the
 * checkout has it.
 */
const APP_PACKAGES = [
  'msw',
  'typescript',
  'vite',
  'vitest',
  '@playwright/test',
  'msw-storybook-addon',
  'storybook',
  '@storybook/html-vite',
  '@types/express',
  '@types/node',
]

/**
 * The environment of a team's shell: without what this Vitest run sets for its own tests (`NODE_ENV=test`
 * would make the app's `vite build` a development build, `VITEST_*` would confuse the app's own Vitest).
 */
export function appEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(VITEST\w*|TEST|NODE_ENV|MODE|DEV|PROD|SSR|BASE_URL)$/.test(name),
    ),
  )
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }
}

export const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', env: appEnv() })

const manifestOf = (modules: string, name: string) =>
  JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as {
    version: string
    bin?: string | Record<string, string>
  }
const installedVersion = (name: string) => manifestOf(join(root, 'node_modules'), name).version

/** The script of a package's command in the app (its `bin`), for this Node to run: where it is moves by version. */
export function binOf(project: string, name: string): string {
  const { bin } = manifestOf(join(project, 'node_modules'), name)
  const script = typeof bin === 'string' ? bin : bin?.[name]
  if (!script) throw new Error(`${name} has no command ${name}`)
  return join(project, 'node_modules', name, script)
}

/**
 * Packs the package into `folder` and installs the tarball into a new app at `project`, as a team does: no
 * flag that forgives a peer conflict (`--prefer-offline` only takes what npm's cache holds). Answers what npm
 * printed, warnings included.
 */
export function packAndInstall(folder: string, project: string): string {
  run('npm', ['pack', '--loglevel=error', '--pack-destination', folder], root)
  const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'))!
  mkdirSync(join(project, 'src'), { recursive: true })
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'frontend-app', version: '1.0.0', type: 'module', private: true }),
  )
  const packages = APP_PACKAGES.map((name) => `${name}@${installedVersion(name)}`)
  const npm = spawnSync('npm', ['install', '--prefer-offline', join(folder, tarball), ...packages], {
    cwd: project,
    encoding: 'utf8',
    env: appEnv(),
  })
  const output = `${npm.stdout}${npm.stderr}`
  if (npm.status !== 0) throw new Error(`npm install failed (${npm.status}):\n${output}`)
  return output
}
