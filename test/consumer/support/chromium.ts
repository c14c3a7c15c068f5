import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { appEnv } from './app.js'

/** Debian's Chromium, or the one PLAYWRIGHT_CHROMIUM_PATH names; undefined: Playwright's own. */
export const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? ['/usr/bin/chromium'].find((path) => existsSync(path))

/**
 * Runs the app's Vite (`vite <args>`: the dev server, or `preview` of a build) on a free loopback port, opens
 * `page` of it in Chromium and reads what the page found (`body[data-answer]`, JSON). Answers it with everything
 * Vite printed until then, warnings included, and what the page logged as a warning or an error.
 */
export async function viteAnswer(
  project: string,
  args: string[],
  page = '',
): Promise<{ answer: unknown; output: string; logged: string[] }> {
  const vite = join(project, 'node_modules/vite/bin/vite.js')
  const server = spawn(process.execPath, [vite, ...args, '--port', '0', '--host', '127.0.0.1'], {
    cwd: project,
    env: appEnv(),
  })
  let output = ''
  server.stderr.on('data', (chunk) => {
    output += chunk
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (chunk) => {
        output += chunk
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(output.replace(/\x1b\[[0-9;]*m/g, ''))
        if (found) resolve(found[0])
      })
      server.once('exit', (code) => reject(new Error(`vite exited with ${code}: ${output}`)))
    })
    return { ...(await pageAnswer(url + page)), output }
  } finally {
    server.kill()
  }
}

async function pageAnswer(url: string): Promise<{ answer: unknown; logged: string[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const page = await browser.newPage()
    const logged: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') logged.push(message.text())
    })
    await page.goto(url)
    // A dev server's first load pre-bundles msw, faker and zod (Vite's dependency optimizer), then reloads.
    const answer = await page.locator('body[data-answer]').getAttribute('data-answer', { timeout: 300_000 })
    return { answer: JSON.parse(answer!), logged }
  } finally {
    await browser.close()
  }
}
