import type { Faker } from '@faker-js/faker'
import { isObject, type JsonSchema, type ServedDocument } from '../fastapi/served/document.js'
import { GENERATION_LIMITS } from '../fastapi/served/generation-bounds.js'
import { pastTimestamp, seededUuid } from './random.js'

/** What a value is generated with besides its schema. */
export interface GenerationContext {
  readonly document: ServedDocument
  readonly faker: Faker
  /** Values of fields named like them (a path parameter's, the stored id): echoed, not generated. */
  readonly echo?: Readonly<Record<string, unknown>>
  /** Timestamps of fields named `*_at`: this moment (a record stored now), else a seeded one in the past. */
  readonly now?: number
  /** How a `date-time` is written: pydantic 1's `+00:00` or pydantic 2's `Z`. */
  readonly utcSuffix: '+00:00' | 'Z'
}

/** Deeper, a value is generated empty: what start-time checks of a document's bounds rely on. */
const MAX_DEPTH = GENERATION_LIMITS.depth

/**
 * A value that fits a document's schema, drawn from a seeded Faker: formats (uuid, date-time, date, email, uri),
 * enums, bounds, lengths and item counts, every required field, nullable fields sometimes null, and strings
 * chosen by the field's name (`name`, `email`, `description`, ...). The same Faker state gives the same value.
 */
export function generateValue(context: GenerationContext, schema: unknown, name = '', depth = 0): unknown {
  if (context.echo && name in context.echo) return context.echo[name]
  const resolved = context.document.deref(schema)
  if (depth > MAX_DEPTH) return resolved.type === 'array' ? [] : null
  const branches = (resolved.anyOf ?? resolved.oneOf) as unknown[] | undefined
  if (Array.isArray(branches)) {
    const others = branches.filter((branch) => !(isObject(branch) && branch.type === 'null'))
    if (others.length < branches.length && context.faker.number.float() < 0.2) return null
    return generateValue(context, context.faker.helpers.arrayElement(others.length ? others : [{}]), name, depth + 1)
  }
  if (Array.isArray(resolved.allOf) && resolved.allOf.length === 1)
    return generateValue(context, resolved.allOf[0], name, depth + 1)
  if (resolved.nullable === true && context.faker.number.float() < 0.2) return null
  if (Array.isArray(resolved.enum) && resolved.enum.length) return context.faker.helpers.arrayElement(resolved.enum)
  return generateTyped(context, resolved, name, depth)
}

function generateTyped(context: GenerationContext, schema: JsonSchema, name: string, depth: number): unknown {
  const { faker } = context
  switch (schema.type) {
    case 'string':
      return generateString(context, schema, name)
    case 'integer':
      if (/_at$/.test(name)) return context.now ?? pastTimestamp(faker, 400)
      return faker.number.int(numberRange(schema, 0, 1000))
    case 'number':
      return faker.number.float({ ...numberRange(schema, 0, 100), fractionDigits: 2 })
    case 'boolean':
      return faker.datatype.boolean()
    case 'array': {
      const min = numberOr(schema.minItems, 1)
      const count = faker.number.int({ min, max: Math.max(min, Math.min(numberOr(schema.maxItems, min + 2), min + 2)) })
      return Array.from({ length: count }, () => generateValue(context, schema.items ?? {}, singular(name), depth + 1))
    }
    default:
      if (isObject(schema.properties)) return generateObject(context, schema, depth)
      if (schema.type === 'object') return generateDict(context, schema, depth)
      return faker.lorem.word()
  }
}

function generateObject(context: GenerationContext, schema: JsonSchema, depth: number): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema.properties as Record<string, unknown>).map(([field, property]) => [
      field,
      generateValue(context, property, field, depth + 1),
    ]),
  )
}

function generateDict(context: GenerationContext, schema: JsonSchema, depth: number): Record<string, unknown> {
  const values = isObject(schema.additionalProperties) ? schema.additionalProperties : { type: 'string' }
  const keys = context.faker.helpers.uniqueArray(() => context.faker.lorem.word(), 2)
  return Object.fromEntries(keys.map((key) => [key, generateValue(context, values, key, depth + 1)]))
}

function generateString(context: GenerationContext, schema: JsonSchema, name: string): string {
  const { faker } = context
  switch (schema.format) {
    case 'uuid':
      return seededUuid(faker)
    case 'date-time':
      return isoTime(context.now ?? pastTimestamp(faker, 400), context.utcSuffix)
    case 'date':
      return isoTime(pastTimestamp(faker, 400), 'Z').slice(0, 10)
    case 'email':
      return faker.internet.email()
    case 'uri':
    case 'url':
      return faker.internet.url()
  }
  return fitLength(textFor(faker, name), schema, faker)
}

/** Text that reads like the field it fills. */
function textFor(faker: Faker, name: string): string {
  if (/email/.test(name)) return faker.internet.email()
  if (/(^|_)(url|uri|link)$/.test(name)) return faker.internet.url()
  if (/(^|_)name$/.test(name)) return name === 'name' ? faker.company.catchPhrase() : faker.person.fullName()
  if (/description|summary|comment|text|message/.test(name)) return faker.lorem.sentence()
  if (/title/.test(name)) return faker.lorem.words(3)
  if (/model/.test(name)) return faker.helpers.arrayElement(['gpt-4o', 'claude-sonnet', 'llama-3-70b', 'mistral-large'])
  if (/language|locale/.test(name)) return faker.helpers.arrayElement(['en', 'de', 'fr', 'es'])
  return faker.lorem.word()
}

/**
 * The text padded to `minLength` and cut to `maxLength`, counted in code points as pydantic counts them. It
 * counts without spreading the string into an array: a `minLength` of 64 KiB (GENERATION_LIMITS) stays cheap.
 */
function fitLength(text: string, schema: JsonSchema, faker: Faker): string {
  const min = numberOr(schema.minLength, 0)
  const max = numberOr(schema.maxLength, Number.POSITIVE_INFINITY)
  // One draw of `min` letters, as before: the same seed keeps giving the same records.
  const padded = codePointCount(text) < min ? text + faker.string.alpha(min) : text
  return codePointCount(padded) > max ? firstCodePoints(padded, max) : padded
}

function codePointCount(text: string): number {
  let count = 0
  for (let at = 0; at < text.length; at += (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1) count++
  return count
}

/** The first `count` code points of the text (a surrogate pair is never split). */
function firstCodePoints(text: string, count: number): string {
  let at = 0
  for (let taken = 0; taken < count && at < text.length; taken++) at += (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1
  return text.slice(0, at)
}

/** The inclusive range a number may take: the schema's bounds, else a small positive one. */
function numberRange(schema: JsonSchema, min: number, max: number): { min: number; max: number } {
  const low = numberOr(schema.minimum, numberOr(schema.exclusiveMinimum, min - 1) + 1)
  const high = numberOr(schema.maximum, numberOr(schema.exclusiveMaximum, Math.max(low, max) + 1) - 1)
  return { min: low, max: Math.max(low, high) }
}

const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback)

const singular = (name: string) => name.replace(/s$/, '')

/** A Unix time as pydantic writes an aware UTC datetime. */
export function isoTime(seconds: number, utcSuffix: '+00:00' | 'Z'): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', utcSuffix)
}
