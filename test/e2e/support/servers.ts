import { fileURLToPath } from 'node:url'

/** Where the Playwright config starts the two web servers; tests build their URLs from these. */
export const DEMO_URL = 'http://127.0.0.1:4173'
export const API_URL = 'http://127.0.0.1:4174'
/** Storybook's static build (dist-storybook/), served by `vite preview`. */
export const STORYBOOK_URL = 'http://127.0.0.1:4175'

/** The contract the `mock` fixture's tests record in a run (the config's `recordContract`), replayed last. */
export const CONTRACT_FILE = fileURLToPath(new URL('../test-results/contract/contract.json', import.meta.url))
