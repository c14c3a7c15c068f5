import { existsSync } from 'node:fs'
import type { LaunchOptions } from '@playwright/test'

/**
 * The system Chromium where there is one (Playwright's own browsers may not be downloadable,
 * e.g. offline or on Debian images), else Playwright's. PLAYWRIGHT_CHROMIUM_PATH overrides both.
 */
const executablePath =
  process.env.PLAYWRIGHT_CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))

/** How every e2e config launches Chromium: quiet, with no network of its own beside the tests'. */
export const launchOptions: LaunchOptions = {
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-quic',
  ],
}
