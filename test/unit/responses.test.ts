import { expect, it } from 'vitest'
import { Reply, toResponse, writtenBody } from '../../fastapi/http/reply.js'
import { arrayResponse, jsonResponse, listResponse, temporaryRedirect } from '../../fastapi/http/responses.js'

const described = (response: Response) => ({
  status: response.status,
  statusText: response.statusText,
  headers: [...response.headers],
})

const text = (bytes: Uint8Array | null | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array(0))

it('builds a reply into the Response the constructor would build from the same record', async () => {
  const record = { allow: 'GET, POST', 'content-length': '2', location: 'http://x/y', 'x-Mixed-Case': 'kept' }
  const bytes = new TextEncoder().encode('{}')
  const built = toResponse(new Reply(405, record, bytes), false)
  const expected = new Response(bytes, { status: 405, statusText: 'Method Not Allowed', headers: record })
  expect(described(built)).toEqual(described(expected))
  expect(await built.text()).toBe('{}')
  expect(built.headers.get('x-mixed-case')).toBe('kept')
})

it('gives a host that writes the bytes itself a bodiless Response holding them', () => {
  const reply = jsonResponse(201, { a: 1 })
  const built = toResponse(reply, true)
  expect(built.body).toBeNull()
  expect(text(writtenBody(built))).toBe('{"a":1}')
  expect(described(built)).toEqual(described(toResponse(reply, false)))
  expect(writtenBody(toResponse(reply, false))).toBeUndefined()
})

it('passes a Fetch Response through as it is', () => {
  const response = new Response('x', { status: 418 })
  expect(toResponse(response, true)).toBe(response)
  expect(toResponse(response, false)).toBe(response)
})

it('refuses a header value Fetch refuses, as the constructor does', () => {
  expect(() => toResponse(new Reply(200, { 'x-bad': 'a\nb' }, null), false)).toThrow(TypeError)
})

it('keeps headers as Headers does: names in lower case, iterated by name, appended values joined', () => {
  const reply = new Reply(200, { 'X-B': '1', 'x-a': '2' }, null)
  reply.headers.append('x-b', '3')
  reply.headers.set('Vary', 'Origin')
  expect([...reply.headers]).toEqual([
    ['vary', 'Origin'],
    ['x-a', '2'],
    ['x-b', '1, 3'],
  ])
  expect(reply.headers.get('X-A')).toBe('2')
  expect(reply.headers.has('x-c')).toBe(false)
})

it('writes no body for HEAD and keeps every header, content-length included', () => {
  const reply = jsonResponse(200, { a: 'é' })
  const head = reply.withoutBody()
  expect(head.bytes).toBeNull()
  expect([...head.headers]).toEqual([...reply.headers])
  expect(toResponse(head, false).body).toBeNull()
})

it('writes a JSON answer with content-length and content-type, then its bytes', () => {
  const reply = jsonResponse(200, { a: 'é' })
  expect([...reply.headers]).toEqual([
    ['content-length', '10'],
    ['content-type', 'application/json'],
  ])
  expect(text(reply.bytes)).toBe('{"a":"é"}')
  expect(temporaryRedirect('http://x/y').bytes).toBeNull()
})

it('joins records written already into the bytes jsonResponse writes for the same list', () => {
  const records = [
    { id: 'a', name: 'Zoë' },
    { id: 'b', name: '日本' },
  ]
  const encoded = [new TextEncoder().encode(JSON.stringify(records[0])), JSON.stringify(records[1])]
  expect(listResponse(encoded, 12_345).bytes).toEqual(jsonResponse(200, { results: records, total: 12_345 }).bytes)
  expect(arrayResponse(201, encoded).bytes).toEqual(jsonResponse(201, records).bytes)
  expect(text(listResponse([], 0).bytes)).toBe('{"results":[],"total":0}')
})
