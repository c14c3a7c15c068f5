import { HttpResponse } from 'msw'
import { BULK, forward, numberParam, override, PERSONAS, rewrite, type Json } from '../support/variant.js'
import { bodyOf, type BrokenVariant } from './helpers.js'

/** Broken variants for validation. */
export const VALIDATION: BrokenVariant[] = [
  // validation
  {
    bug: 'uncapped limit: 101 accepted',
    caughtBy: 'validation.limit-range',
    handlers: () => [
      override('get', PERSONAS, (request) =>
        numberParam(request, 'limit', 10) > 100
          ? forward(request, { url: (url) => url.searchParams.set('limit', '100') })
          : undefined,
      ),
    ],
  },
  {
    bug: 'a negative offset is read as 0',
    caughtBy: 'validation.offset-range',
    handlers: () => [
      override('get', PERSONAS, (request) =>
        numberParam(request, 'offset', 0) < 0
          ? forward(request, { url: (url) => url.searchParams.set('offset', '0') })
          : undefined,
      ),
    ],
  },
  {
    bug: 'wrong error shape: 422 detail as one string',
    caughtBy: 'validation.limit-range',
    alsoFails: ['validation.offset-range', 'validation.uuid'],
    handlers: () => [
      rewrite(
        'get',
        PERSONAS,
        (body, _request, status) =>
          status === 422 ? { detail: body.detail.map((error: Json) => error.msg).join('; ') } : body,
        { all: true },
      ),
    ],
  },
  {
    bug: 'a malformed team_id answers 400',
    caughtBy: 'validation.uuid',
    handlers: () => [
      rewrite(
        'get',
        PERSONAS,
        (body, _request, status) =>
          status === 422 && body.detail[0].loc[1] === 'team_id'
            ? HttpResponse.json({ detail: 'Invalid team_id' }, { status: 400 })
            : body,
        { all: true },
      ),
    ],
  },
  {
    bug: 'a body without values answers 400 "values is required"',
    caughtBy: 'validation.body',
    handlers: () => [
      override('post', BULK, async (request) =>
        'values' in ((await bodyOf(request)) ?? { values: [] })
          ? undefined
          : HttpResponse.json({ detail: 'values is required' }, { status: 400 }),
      ),
    ],
  },
  {
    // The description leaves the maximum open: the bug is the document, whose maxItems 1000 the server breaks.
    bug: 'a bulk add of more than 100 values refused, though /openapi.json declares maxItems 1000',
    caughtBy: 'validation.bulk-limits',
    handlers: () => [
      override('post', BULK, async (request) => {
        const values = (await bodyOf(request))?.values
        if (!Array.isArray(values) || values.length <= 100) return undefined
        const detail = [
          {
            type: 'too_long',
            loc: ['body', 'values'],
            msg: 'List should have at most 100 items after validation, not 1000',
            input: values,
            ctx: { field_type: 'List', max_length: 100, actual_length: values.length },
          },
        ]
        return HttpResponse.json({ detail }, { status: 422 })
      }),
    ],
  },
]
