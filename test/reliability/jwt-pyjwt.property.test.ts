import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { verifyToken } from 'agent-console-mock'
import { fuzzParameters, tally, timeoutFor } from './support/fuzz.js'
import { PyJwtOracle, pyjwtUnavailable } from './support/pyjwt.js'

// Generated tokens judged by the mock's verifyToken and by PyJWT itself (test/reliability/support/pyjwt.ts):
// odd headers, time claims of every JSON type, `aud`, encodings, base64 quirks, signatures kept or broken.
// The mock must accept exactly the tokens PyJWT and the server's Claims model accept.

const unavailable = pyjwtUnavailable()
if (unavailable) console.warn(`jwt-pyjwt.property skipped: ${unavailable}`)

const RUNS = 1000
const SECRET = 'pyjwt-parity-secret'
let oracle: PyJwtOracle
beforeAll(() => {
  if (!unavailable) oracle = new PyJwtOracle()
})
afterAll(() => oracle?.close())

const json = JSON.stringify
const now = () => Math.floor(Date.now() / 1000)
const arabicIndic = (digits: string) => digits.replace(/\d/g, (d) => String.fromCharCode(0x660 + Number(d)))
/** A time at least 1,000 s from now, mostly on the side that passes, so that the two clocks never disagree. */
const when = (future: boolean) =>
  fc
    .tuple(
      fc.integer({ min: 1000, max: 10 ** 9 }),
      fc.oneof({ weight: 4, arbitrary: fc.constant(future) }, fc.boolean()),
    )
    .map(([away, ahead]) => now() + (ahead ? away : -away))
const timeText = (future: boolean) =>
  fc.oneof(
    { weight: 6, arbitrary: when(future).map(String) },
    when(future).map((t) => `${t}.5`),
    when(future).map((t) => `${t}e0`),
    { weight: 2, arbitrary: when(future).map((t) => json(String(t))) },
    when(future).map((t) => json(` +${t}\n`)),
    when(future).map((t) => json(String(t).replace(/(\d)(\d)/, '$1_$2'))),
    when(future).map((t) => json(arabicIndic(String(t)))),
    when(future).map((t) => json(`${t}.5`)),
    fc.constantFrom('"abc"', '""', 'null', 'true', 'false', '[]', '{}', '"0x10"', '"1__0"', '"-5"', '0', '-1.5'),
    fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', '123456789012345678901234567890', '-1e300'),
    fc.constantFrom(json('9'.repeat(4300)), json('9'.repeat(4301)), json(`1${'_0'.repeat(4300)}`)),
  )
const entry = (key: string, ...texts: fc.Arbitrary<string>[]) =>
  fc.option(
    fc.oneof(...texts).map((text) => `${json(key)}:${text}`),
    { nil: undefined, freq: 3 },
  )
const often = (valid: string[], odd: string[]) =>
  fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...odd) })
const payloadText = fc
  .tuple(
    fc.oneof(
      { weight: 8, arbitrary: fc.constant('"sub":"user-1"') },
      entry('sub', fc.constantFrom('""', '42', 'null', '["u"]')),
    ),
    entry('team_id', often(['"team-1"', 'null'], ['5', '[]'])),
    entry('permissions', often(['[]', '["persona:read"]'], ['[1]', 'null', '"persona:read"'])),
    entry('is_super_admin', often(['true', 'false'], ['1', '"true"', 'null'])),
    entry('iat', timeText(false)),
    entry('nbf', timeText(false)),
    entry('exp', timeText(true)),
    entry('aud', often(['""', '[]', '0', 'null', 'false', '{}', '0.0', '-0.0'], ['"x"', '["x"]', '1', 'NaN'])),
    entry(
      'x',
      fc.integer({ min: 1, max: 40 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    ),
    entry('exp', timeText(true)),
  )
  .map((entries) => `{${entries.filter((text) => text !== undefined).join(',')}}`)
const headerText = often(
  ['{"alg":"HS256","typ":"JWT"}', '{"alg":"HS256"}', '{"typ":"JWT","alg":"HS256"}', '{"alg":"HS\\u0032\\u00356"}'],
  [
    ...['{"alg":"HS256","kid":"k"}', '{"alg":"HS256","kid":1}', '{"alg":"HS256","kid":null}', '{"alg":"hs256"}'],
    ...['{"alg":"HS256","crit":["b64"],"b64":true}', '{"alg":"HS256","crit":["b64"]}', '{"alg":"HS256","crit":[]}'],
    ...[
      '{"alg":"HS256","crit":"b64","b64":true}',
      '{"alg":"HS256","crit":["exp"],"exp":1}',
      '{"alg":"HS256","crit":[1]}',
    ],
    ...['{"alg":"HS256","b64":false}', '{"alg":"HS256","b64":0}', '{"alg":"HS384"}', '{"alg":"none"}', '{"alg":null}'],
    ...['{"alg":["HS256"]}', '{}', '[]', '"HS256"', '{"alg":"none","alg":"HS256"}', '{"alg":"HS256","alg":"none"}'],
    ...[' {"alg":"HS256"}\n', '{"alg":"HS256","x":NaN}', '{"alg":"HS256",}', '{"alg":"HS256"'],
  ],
)
/** How the JSON becomes bytes: mostly UTF-8; json.loads also detects a BOM, UTF-16 and UTF-32. */
const encoding = often(['utf8'], ['bom', 'utf16le', 'utf16be', 'latin1'])
const encode = (text: string, how: string): Buffer => {
  if (how === 'bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])
  if (how === 'utf16be') return Buffer.from(text, 'utf16le').swap16()
  return Buffer.from(text, how as BufferEncoding)
}
/** What a segment's text may go through: padding, the standard alphabet, stray characters, a lost one. */
const mutation = fc.oneof(
  { weight: 16, arbitrary: fc.constant((segment: string) => segment) },
  fc.constantFrom('=', '==', '===', '====').map((pad) => (segment: string) => segment + pad),
  fc.constant((segment: string) => segment.replace(/-/g, '+').replace(/_/g, '/')),
  fc
    .tuple(fc.nat(), fc.constantFrom(' ', '\u00e9', '!', '=', '.', '\t', '~', '*', '\u00ff'))
    .map(([at, char]) => (segment: string) => {
      const i = at % (segment.length + 1)
      return segment.slice(0, i) + char + segment.slice(i)
    }),
  fc
    .nat()
    .map(
      (at) => (segment: string) =>
        segment.slice(0, at % (segment.length + 1)) + segment.slice((at % (segment.length + 1)) + 1),
    ),
)
const tokens = fc
  .record({
    header: fc.tuple(headerText, encoding, mutation),
    payload: fc.tuple(payloadText, encoding, mutation),
    signature: fc.tuple(
      mutation,
      fc.oneof({ weight: 9, arbitrary: fc.constant(SECRET) }, { weight: 1, arbitrary: fc.constant('another') }),
    ),
  })
  .map(({ header, payload, signature: [mutate, secret] }) => {
    const segment = ([text, how, change]: typeof header) => change(encode(text, how).toString('base64url'))
    // Signed over the segments as they are sent, so only the signature's own changes break it.
    const input = `${segment(header)}.${segment(payload)}`
    return `${input}.${mutate(createHmac('sha256', secret).update(input).digest('base64url'))}`
  })

it.skipIf(unavailable)(
  'accepts exactly the generated tokens that PyJWT and the server accept',
  async () => {
    const verdicts = tally('PyJWT verdicts of generated tokens')
    await fc.assert(
      fc.asyncProperty(tokens, async (token) => {
        const expected = await oracle.verdict(token, SECRET)
        verdicts.add(expected)
        expect((await verifyToken(token, SECRET)) === undefined ? 'refused' : 'accepted', expected).toBe(
          expected === 'accepted' ? 'accepted' : 'refused',
        )
      }),
      fuzzParameters(RUNS, 14_506),
    )
    verdicts.print()
  },
  timeoutFor(RUNS, 5),
)
