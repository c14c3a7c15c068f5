import { BROKEN_REQUESTS } from './broken-variants.js'
import { itCatchesEach } from './support/catches.js'

/** The broken variants of what the server takes (those of what it answers: broken-variants.test.ts). */
itCatchesEach(BROKEN_REQUESTS)
