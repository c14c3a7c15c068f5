import { expect, it } from 'vitest'
import { answer, arrayResponse, jsonResponse, listResponse, writtenBody } from '../../fastapi/http/responses.js'

const described = (response: Response) => ({
  status: response.status,
  statusText: response.statusText,
  headers: [...response.headers],
  body: response.body,
})

it('gives a bodiless answer the headers of a record, as the Response constructor would', () => {
  const record = { allow: 'GET, POST', 'content-length': '0', location: 'http://x/y', 'x-Mixed-Case': 'kept' }
  const built = answer(null, 405, record)
  expect(described(built)).toEqual(
    described(new Response(null, { status: 405, statusText: 'Method Not Allowed', headers: record })),
  )
  expect(built.headers.get('x-mixed-case')).toBe('kept')
})

it('refuses a header value Fetch refuses, as the constructor does', () => {
  expect(() => answer(null, 200, { 'x-bad': 'a\nb' })).toThrow(TypeError)
})

it('leaves bodies and Headers to the constructor: a text body keeps the content-type given', () => {
  const text = answer('Internal Server Error', 500, { 'content-type': 'text/plain; charset=utf-8' })
  expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  const copied = answer(null, 201, new Headers([['x-a', '1']]))
  expect([...copied.headers]).toEqual([['x-a', '1']])
})

it('writes a JSON answer with content-length and content-type, its bytes held', () => {
  const response = jsonResponse(200, { a: 'é' })
  expect([...response.headers]).toEqual([
    ['content-length', '10'],
    ['content-type', 'application/json'],
  ])
  expect(new TextDecoder().decode(writtenBody(response))).toBe('{"a":"é"}')
})

it('joins records written already into the bytes jsonResponse writes for the same list', () => {
  const records = [
    { id: 'a', name: 'Zoë' },
    { id: 'b', name: '日本' },
  ]
  const encoded = [new TextEncoder().encode(JSON.stringify(records[0])), JSON.stringify(records[1])]
  expect(writtenBody(listResponse(encoded, 12_345))).toEqual(
    writtenBody(jsonResponse(200, { results: records, total: 12_345 })),
  )
  expect(writtenBody(arrayResponse(201, encoded))).toEqual(writtenBody(jsonResponse(201, records)))
  expect(new TextDecoder().decode(writtenBody(listResponse([], 0)))).toBe('{"results":[],"total":0}')
})
