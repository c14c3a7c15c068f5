// @ts-check
/**
 * The ceiling of the standalone mock's stack in `npm run bench`: Express 5 and the mock's own
 * middleware (msw's public `getResponse`), with one msw handler that answers a page written in
 * advance. No work of the mock's is done, so no Express + msw server can answer faster; the
 * mock is measured against it to show what its own work costs.
 * Usage: node scripts/bench/ceiling-server.mjs <pageBytesFile>   (prints "READY <url>")
 */
import { readFileSync } from 'node:fs'
import express from 'express'
import { http } from 'msw'
import { mockMiddleware } from '../../dist/server/index.js'

const page = readFileSync(process.argv[2] ?? '')
const handlers = [
  http.get(
    ({ request }) => new URL(request.url).pathname === '/v1/personas/',
    () =>
      new Response(page, {
        headers: { 'content-length': String(page.byteLength), 'content-type': 'application/json' },
      }),
  ),
]
const app = express().disable('x-powered-by').disable('etag')
app.use(mockMiddleware({ handlers: () => handlers }))
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address()
  console.log(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`)
})
