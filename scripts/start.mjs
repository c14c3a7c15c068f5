#!/usr/bin/env node
/**
 * `npm start [-- options]`: brings dist/ up to date (scripts/build.mjs: esbuild, well under a
 * second), then runs the built CLI in this same process, one Node start-up less than
 * `node dist/server/cli.js` after it. The options go to the CLI as they are.
 */
import { build } from './build.mjs'

const status = await build()
if (status !== 0) process.exit(status)
await import('../dist/server/cli.js')
