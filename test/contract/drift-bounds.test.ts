/**
 * verify against servers that declare bounds in /openapi.json where the mock has none: a bound the description
 * leaves open is the server's choice (a warning), one it gives (a personas `limit` of 1 to 100) is the contract.
 */
import { expect, it } from 'vitest'
import type { RequestHandler } from 'msw'
import { verify, type Report } from '../../verify/index.js'
import { startMock, verifyOptionsFor } from './support/mock.js'
import { checkOf, failedIds } from './support/reports.js'
import { documented } from './variants/choices.js'
import { HttpResponse } from 'msw'
import { type Json, override, PERSONAS } from './support/variant.js'

/** `search: str | None = Query(None, min_length=1)`, enforced as pydantic 2 refuses it. */
const searchAtLeastOne = (): RequestHandler =>
  override('get', PERSONAS, (request) => {
    if (new URL(request.url).searchParams.get('search') !== '') return undefined
    const entry = { type: 'string_too_short', loc: ['query', 'search'], msg: 'String should have at least 1 character' }
    return HttpResponse.json({ detail: [{ ...entry, input: '', ctx: { min_length: 1 } }] }, { status: 422 })
  })

const personasParameter = (document: Json, name: string) =>
  document.paths['/v1/personas/'].get.parameters.find((parameter: Json) => parameter.name === name)

/**
 * The Debian FastAPI apps' bounds: `display_name` max_length=100, `sort_order` ge=0, `search` min_length=1;
 * `also` changes the same document further.
 */
const boundsLeftOpen = (also: (document: Json) => void = () => {}): RequestHandler[] => [
  ...documented((document) => {
    const item = document.components.schemas.DemographicValueCreate.properties
    item.display_name.anyOf[0].maxLength = 100
    item.sort_order.anyOf[0].minimum = 0
    personasParameter(document, 'search').schema.anyOf[0].minLength = 1
    also(document)
  }),
  searchAtLeastOne(),
]

const [check, failed] = [checkOf, failedIds]

async function reportOn(handlers: () => RequestHandler[]): Promise<Report> {
  const running = await startMock({ handlers: handlers() })
  try {
    return await verify(verifyOptionsFor(running))
  } finally {
    await running.close()
  }
}

it('passes bounds the description leaves open, declared and kept, with a warning for each', async () => {
  const report = await reportOn(boundsLeftOpen)
  expect(failed(report)).toEqual([])
  const open = /left open by the description \(the description sets no (minimum|maximum) this tight: the mock takes /
  const body = check(report, 'drift.request-body').warnings
  for (const field of ['display_name: maxLength none in the mock, 100', 'sort_order: minimum none in the mock, 0'])
    expect(body.find((line) => line.includes(`body.values[].${field}`)) ?? '', field).toMatch(open)
  const search = check(report, 'drift.parameters').warnings.find((line) => line.includes('query parameter search'))
  expect(search ?? '').toMatch(open)
})

it('still fails a personas limit below the described 1 to 100, declared in /openapi.json', async () => {
  const report = await reportOn(() =>
    boundsLeftOpen((document) => (personasParameter(document, 'limit').schema.maximum = 50)),
  )
  expect(failed(report)).toContain('drift.parameters')
  expect(JSON.stringify(check(report, 'drift.parameters').evidence)).toMatch(
    /query parameter limit: maximum 100 in the mock, 50 on the server/,
  )
  expect(failed(report)).not.toContain('drift.request-body')
})
