import { HttpResponse } from 'msw'
import type { RequestHandler } from 'msw'
import { BULK, override, type Json } from '../support/variant.js'
import { documented } from './choices.js'
import { bodyOf } from './helpers.js'

/**
 * Correct servers with a tighter bulk cap and value length than the mock's 1000 values and 255 characters. The
 * description leaves both open ("Maximum number of items in one bulk add request: not shown"): each is a profile
 * finding, whether /openapi.json declares the bound or not.
 */
type BulkBounds = { bulkMaxItems: number; valueMaxLength: number }

/** `values: List[Item] = Field(max_length=500)`, `value: str = Field(max_length=100)`: declared and enforced. */
export const TIGHTER_BOUNDS: BulkBounds = { bulkMaxItems: 500, valueMaxLength: 100 }
export const tighterBulkBounds = (): RequestHandler[] => [
  ...documented((document) => {
    const { schemas } = document.components
    schemas.BulkAddValues.properties.values.maxItems = TIGHTER_BOUNDS.bulkMaxItems
    schemas.DemographicValueCreate.properties.value.maxLength = TIGHTER_BOUNDS.valueMaxLength
  }),
  refusedPast(TIGHTER_BOUNDS),
]

/**
 * Plain `values: List[Item]` and `value: str` in the document, and the bounds checked in the endpoint, which
 * raises `RequestValidationError` with pydantic's own entries: enforced, never declared.
 */
export const UNDECLARED_BOUNDS: BulkBounds = { bulkMaxItems: 200, valueMaxLength: 64 }
export const undeclaredBulkBounds = (): RequestHandler[] => [
  ...documented((document) => {
    const { schemas } = document.components
    delete schemas.BulkAddValues.properties.values.maxItems
    delete schemas.DemographicValueCreate.properties.value.maxLength
    delete schemas.DemographicValueCreate.properties.value.minLength
  }),
  refusedPast(UNDECLARED_BOUNDS),
]

/** Refuses more values, or a longer value, than `bounds`, as pydantic 2 does (the mock takes up to its own). */
function refusedPast({ bulkMaxItems, valueMaxLength }: BulkBounds): RequestHandler {
  return override('post', BULK, async (request) => {
    const values = (await bodyOf(request))?.values
    if (!Array.isArray(values)) return undefined
    const refuse = (entry: Json) => HttpResponse.json({ detail: [entry] }, { status: 422 })
    if (values.length > bulkMaxItems)
      return refuse({
        type: 'too_long',
        loc: ['body', 'values'],
        msg: `List should have at most ${bulkMaxItems} items after validation, not ${values.length}`,
        input: values,
        ctx: { field_type: 'List', max_length: bulkMaxItems, actual_length: values.length },
      })
    const long = values.findIndex((item: Json) => typeof item?.value === 'string' && item.value.length > valueMaxLength)
    if (long < 0) return undefined
    return refuse({
      type: 'string_too_long',
      loc: ['body', 'values', long, 'value'],
      msg: `String should have at most ${valueMaxLength} characters`,
      input: values[long].value,
      ctx: { max_length: valueMaxLength },
    })
  })
}
