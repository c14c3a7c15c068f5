import { buildPackageOnce } from './global-setup.js'

/** The process tier's global setup: dist/ with its declarations (test/global-setup.ts says why). */
export default buildPackageOnce
