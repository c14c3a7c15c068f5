import { BULK, forward, OPENAPI, override, rewrite, type Json } from '../support/variant.js'
import { bodyOf, type BrokenVariant, withoutReturned } from './helpers.js'

/** Broken variants for the bulk add and drift. */
export const BULK_AND_DRIFT: BrokenVariant[] = [
  // bulk add
  {
    bug: 'a value sent without display_name comes back with display_name null',
    caughtBy: 'bulk.defaults',
    handlers: () => [
      rewrite('post', BULK, async (body, request) => {
        const sent = (await bodyOf(request)).values as Json[]
        return body.map((value: Json, i: number) =>
          sent[i]?.display_name === undefined ? { ...value, display_name: null } : value,
        )
      }),
    ],
  },
  {
    bug: 'metadata not returned',
    caughtBy: 'bulk.records',
    handlers: () => [rewrite('post', BULK, (body) => body.map((value: Json) => ({ ...value, value_metadata: {} })))],
  },
  {
    // Checked against the dimension, never within the request: a bug whatever the server does with duplicates.
    bug: 'duplicates skipped against the dimension but not within the request',
    caughtBy: 'bulk.duplicates',
    handlers: () => [
      rewrite('post', BULK, async (body, request) => {
        const sent = (await bodyOf(request)).values as Json[]
        const repeats = withoutReturned(sent, body).filter((item) =>
          body.some((value: Json) => value.value === item.value),
        )
        return [
          ...body,
          ...repeats.map((item) => ({
            ...body.find((value: Json) => value.value === item.value),
            id: crypto.randomUUID(),
          })),
        ]
      }),
    ],
  },
  {
    bug: 'the valid items of a refused bulk add are kept',
    caughtBy: 'bulk.all-or-nothing',
    handlers: () => [
      override('post', BULK, async (request) => {
        const response = await forward(request)
        if (response.status !== 422) return response
        const sent = await bodyOf(request)
        const valid = Array.isArray(sent?.values)
          ? sent.values.filter((item: Json) => typeof item?.value === 'string')
          : []
        if (valid.length > 0) await forward(request, { body: JSON.stringify({ values: valid }) })
        return response
      }),
    ],
  },
  // drift
  {
    bug: '/openapi.json lacks the bulk add',
    caughtBy: 'drift.operations',
    handlers: () => [
      rewrite('get', OPENAPI, (document) => ({
        ...document,
        paths: { ...document.paths, '/v1/demographics/{dimension_id}/values/bulk': undefined },
      })),
    ],
  },
  {
    bug: '/openapi.json declares a personas limit up to 50',
    caughtBy: 'drift.parameters',
    handlers: () => [
      rewrite('get', OPENAPI, (document) => {
        document.paths['/v1/personas/'].get.parameters.find(
          (parameter: Json) => parameter.name === 'limit',
        ).schema.maximum = 50
        return document
      }),
    ],
  },
  {
    bug: '/openapi.json lacks sort_order in the bulk add body',
    caughtBy: 'drift.request-body',
    handlers: () => [
      rewrite('get', OPENAPI, (document) => {
        delete document.components.schemas.DemographicValueCreate.properties.sort_order
        return document
      }),
    ],
  },
  {
    bug: '/openapi.json declares Persona.created_at a date-time string',
    caughtBy: 'drift.responses',
    handlers: () => [
      rewrite('get', OPENAPI, (document) => {
        document.components.schemas.Persona.properties.created_at = {
          type: 'string',
          format: 'date-time',
          title: 'Created At',
        }
        return document
      }),
    ],
  },
]
