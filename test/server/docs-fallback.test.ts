/**
 * swagger-ui-dist is an optional peer dependency: without it, `/docs` says how to get the interactive docs,
 * and every other path (its other spellings included) goes on to the mock as before.
 */
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DOCS_UNAVAILABLE, serveDocsAssets } from '../../server/docs.js'

let base: string
let close: () => void
beforeAll(async () => {
  const app = express()
  serveDocsAssets(app, () => undefined)
  app.use((req, res) => void res.status(404).type('text').send(`the core: ${req.method} ${req.url}`))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => server.close()
})
afterAll(() => close())

it('answers /docs with a page that says to install swagger-ui-dist, and links /openapi.json', async () => {
  for (const path of ['/docs', '/docs?x=1']) {
    const res = await fetch(base + path)
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    const text = await res.text()
    expect(text).toContain(DOCS_UNAVAILABLE)
    expect(text).toContain('href="/openapi.json"')
  }
  const head = await fetch(`${base}/docs`, { method: 'HEAD' })
  expect([head.status, await head.text()]).toEqual([200, ''])
})

it('leaves every other path to the core: the slash twin, another case, the assets, the redirect page', async () => {
  for (const path of ['/docs/', '/DOCS', '/__mock/docs-assets/swagger-ui.css', '/docs/oauth2-redirect']) {
    const res = await fetch(base + path, { redirect: 'manual' })
    expect([res.status, await res.text()], path).toEqual([404, `the core: GET ${path}`])
  }
  const post = await fetch(`${base}/docs`, { method: 'POST' })
  expect(await post.text()).toBe('the core: POST /docs')
})
