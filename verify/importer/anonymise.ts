import { createHmac } from 'node:crypto'
import type { Faker } from '@faker-js/faker'
import type { Json } from '../client/crawl.js'
import { seededFaker } from '../../factories/random.js'

/**
 * Replaces names and free text by seeded fakes and keeps everything else (ids, enumerations, numbers, timestamps,
 * counts, the shape of every field; README "Import real data" has the table). A fake depends only on the seed, the
 * kind of text and the text itself, through a keyed hash: the same seed and input give the same file, and one text
 * (a role, a tag, an action shared by many records) becomes one fake everywhere, so filters and searches group the
 * records as before. Without the seed, a fake cannot be traced back by hashing guesses.
 */
export class Anonymiser {
  readonly #key: string
  readonly #faker = seededFaker(0)
  readonly #cache = new Map<string, string>()

  constructor(seed: string) {
    this.#key = seed
  }

  persona(persona: Json): Json {
    return {
      ...persona,
      name: this.#fake('name', persona['name'], (faker) => faker.person.fullName()),
      description: this.#text(persona['description']),
      role: this.#fake('role', persona['role'], (faker) => faker.person.jobTitle()),
      role_description: this.#text(persona['role_description']),
      access_permissions: this.#permissions(persona['access_permissions']),
      tags: this.#tokens(persona['tags']),
    }
  }

  rule(rule: Json): Json {
    const consequence = asObject(rule['consequence'])
    const provenance = asObject(rule['provenance'])
    const location = asObject(provenance?.['source_location'])
    return {
      ...rule,
      action: this.#token(rule['action']),
      consequence: consequence && { ...consequence, message: this.#text(consequence['message']) },
      natural_language: this.#text(rule['natural_language']),
      target: this.#token(rule['target']),
      constraints: Array.isArray(rule['constraints'])
        ? rule['constraints'].map((c) => {
            const constraint = asObject(c)
            return constraint ? { ...constraint, right_operand: this.#token(constraint['right_operand']) } : c
          })
        : rule['constraints'],
      provenance: provenance && {
        ...provenance,
        source_location: location && {
          ...location,
          section: this.#text(location['section']),
          source_text: this.#text(location['source_text']),
        },
      },
      tags: this.#tokens(rule['tags']),
      review_notes: this.#text(rule['review_notes']),
    }
  }

  /** Structured permissions: the lists' items (agent, tool, action names); free-form: every string inside. */
  #permissions(value: unknown): unknown {
    const permissions = asObject(value)
    if (!permissions) return value
    const structured = 'privilege_level' in permissions || 'allowed_tools' in permissions
    if (!structured) return this.#strings(permissions)
    return Object.fromEntries(
      Object.entries(permissions).map(([key, item]) => [key, LISTS.has(key) ? this.#tokens(item) : item]),
    )
  }

  /** Every string inside a free-form value (keys kept): a word-like one as a token, one with spaces as text. */
  #strings(value: unknown): unknown {
    if (typeof value === 'string') return /\s/.test(value) ? this.#text(value) : this.#token(value)
    if (Array.isArray(value)) return value.map((item) => this.#strings(item))
    const object = asObject(value)
    return object ? Object.fromEntries(Object.entries(object).map(([key, item]) => [key, this.#strings(item)])) : value
  }

  #tokens(value: unknown): unknown {
    return Array.isArray(value) ? value.map((item) => this.#token(item)) : value
  }

  /** A word and four letters or digits (`velit-k3q9`): distinct texts stay distinct. */
  #token(value: unknown): unknown {
    return this.#fake(
      'token',
      value,
      (f) => `${f.lorem.word()}-${f.string.alphanumeric({ length: 4, casing: 'lower' })}`,
    )
  }

  /** Lorem ipsum of the same length in characters (so `char_end - char_start` still measures `source_text`). */
  #text(value: unknown): unknown {
    return this.#fake('text', value, (faker) => {
      const length = [...(value as string)].length
      let text = ''
      while (text.length < length) text += `${text ? ' ' : ''}${faker.lorem.word()}`
      text = text.slice(0, length).trimEnd().padEnd(length, '.')
      // A sentence stays a sentence: its last character is a full stop again.
      if ((value as string).endsWith('.')) text = `${text.slice(0, -1)}.`
      return text.charAt(0).toUpperCase() + text.slice(1)
    })
  }

  /** The fake of a string (anything else is kept: `null` stays `null`). */
  #fake(kind: string, value: unknown, make: (faker: Faker) => string): unknown {
    if (typeof value !== 'string' || value === '') return value
    const key = `${kind}\u0000${value}`
    let fake = this.#cache.get(key)
    if (fake === undefined) {
      const digest = createHmac('sha256', this.#key).update(key).digest()
      this.#faker.seed([digest.readUInt32BE(0), digest.readUInt32BE(4), digest.readUInt32BE(8)])
      fake = make(this.#faker)
      this.#cache.set(key, fake)
    }
    return fake
  }
}

/** The list fields of structured access permissions: names of agents, tools and actions. */
const LISTS = new Set(['allowed_agents', 'allowed_tools', 'restricted_actions'])

const asObject = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined
