import { expect, it } from 'vitest'
import { REDACTED, redactHeader } from '../../core/journal/redact.js'
import { SESSION_COOKIE } from '../../core/instance/sessions.js'

it('keeps the scheme of a credential and redacts the rest', () => {
  expect(redactHeader('authorization', 'Bearer eyJhbGciOi.x.y')).toBe(`Bearer ${REDACTED}`)
  expect(redactHeader('authorization', '  Basic   dXNlcjpwYXNz')).toBe(`Basic ${REDACTED}`)
  expect(redactHeader('proxy-authorization', 'Digest username="a"')).toBe(`Digest ${REDACTED}`)
  expect(redactHeader('authorization', 'no-scheme-token')).toBe(REDACTED)
  expect(redactHeader('authorization', 'Bearer ')).toBe(REDACTED)
  expect(redactHeader('authorization', '')).toBe(REDACTED)
})

it('redacts the control token whole, and cookie values but not their names', () => {
  expect(redactHeader('x-mock-control-token', 'abc')).toBe(REDACTED)
  expect(redactHeader('cookie', 'a=1; b=two=2;flag')).toBe(`a=${REDACTED}; b=${REDACTED};flag`)
})

it("keeps the session cookie's value, which names a session and is no secret", () => {
  expect(redactHeader('cookie', `${SESSION_COOKIE}=worker-1; sid=x`)).toBe(
    `${SESSION_COOKIE}=worker-1; sid=${REDACTED}`,
  )
  expect(redactHeader('cookie', ` ${SESSION_COOKIE}=worker-1`)).toBe(` ${SESSION_COOKIE}=worker-1`)
})

it('leaves other headers as they are', () => {
  expect(redactHeader('content-type', 'application/json')).toBe('application/json')
  expect(redactHeader('x-api-key-like', 'Bearer visible')).toBe('Bearer visible')
})
