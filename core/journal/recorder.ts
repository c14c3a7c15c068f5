import { Reply, type Outcome } from '../../fastapi/http/reply.js'
import type { World } from '../../model/world.js'
import {
  contractOf,
  type Interaction,
  type RecordedAnswer,
  type RecordedContract,
} from '../../verify/recording/format.js'
import { describeReference, referenceTable, referTo, referToInJson } from '../../verify/recording/references.js'

/** Distinct interactions one recorder keeps; past it, new ones are counted, not kept. */
const MAX_INTERACTIONS = 2000
/** Characters of recorded interactions one recorder keeps (bodies included); past it, as past the count. */
const MAX_CHARACTERS = 4 * 1024 * 1024
/** What a distinct request costs besides its interaction's text: its key, and the ids it created. */
const REQUEST_BYTES = 256
/** A request larger than this (path, query and body) is not recorded: no replay needs a megabyte query. */
const MAX_REQUEST_CHARACTERS = 64 * 1024

/** What the API hands the recorder for one operation it answered. */
export interface Recording {
  /** The endpoint's name, or a served document's operation's. */
  operation: string
  method: string
  /** The URL as routed (a session's path prefix taken off). */
  url: URL
  body: Uint8Array | undefined
  /** The request's `Authorization` header: interactions that differ only in it are recorded apart. */
  authorization: string | null
  /** Who asked, as a role (verify/recording/roles.ts); called only for an interaction not recorded before. */
  role: () => Promise<string>
  response: Outcome
  /** The world the request was answered on: its teams, policies and dimensions become references. */
  world: World
}

const utf8 = new TextDecoder()
const TIMESTAMPS = ['created_at', 'updated_at', 'reviewed_at']

/**
 * The interactions an app made, each distinct one kept once in the order first seen, normalised as a
 * recorded contract says them (recording/). What is the same request asked again adds nothing, so a
 * long run stays small; the cost for a request already seen is one key lookup.
 */
export class ContractRecorder {
  /** The test the interactions belong to (a Playwright fixture sets it); '' outside a test runner. */
  test = ''
  readonly #seen = new Set<string>()
  readonly #keys = new RequestKeys()
  /** Each interaction as JSON text: objects parsed from a body can take several times the text's size. */
  readonly #interactions: Array<Promise<string | undefined>> = []
  /** Each interaction is normalised after the one before: references to what it created must exist. */
  #last: Promise<unknown> = Promise.resolve()
  /** Ids of records the recorded interactions created: `value 0 of interaction 3`. */
  readonly #created = new Map<string, string>()
  readonly #used = new Set<string>()
  #characters = 0
  #dropped = 0
  /** Told how much {@link bytes} moved by, after each change (a memory budget's running total). */
  onBytes: ((delta: number) => void) | undefined

  /** An estimate of the heap the recorder holds (what a memory budget counts). */
  get bytes(): number {
    return this.#characters + this.#seen.size * REQUEST_BYTES
  }

  /** Interactions not kept because the recorder was full. */
  get dropped(): number {
    return this.#dropped
  }

  record(recording: Recording): void {
    const { method, url, body, response, authorization } = recording
    if (url.pathname.length + url.search.length + (body?.byteLength ?? 0) > MAX_REQUEST_CHARACTERS)
      return void this.#dropped++
    const key = this.#keys.of(`${method} ${url.pathname}${url.search} ${response.status}`, authorization, body)
    if (this.#seen.has(key)) return
    if (this.#seen.size >= MAX_INTERACTIONS) return void this.#dropped++
    this.#seen.add(key)
    this.onBytes?.(REQUEST_BYTES)
    const n = this.#interactions.length + 1
    // A body stream (an override's answer) is read by the host meanwhile: a copy is taken now.
    const answer = response instanceof Reply ? (response.bytes ?? new Uint8Array(0)) : response.clone()
    const normalised = this.#last
      .then(() => this.#normalise(recording, answer, n))
      .then((interaction) => this.#withinBudget(interaction))
      .catch(() => undefined)
    this.#last = normalised
    this.#interactions.push(normalised)
  }

  /** The contract so far (after every interaction in progress is written). */
  async contract(profile: Record<string, unknown>): Promise<RecordedContract> {
    const interactions = (await Promise.all(this.#interactions)).flatMap((text) =>
      text === undefined ? [] : [JSON.parse(text) as Interaction],
    )
    const references = Object.fromEntries([...this.#used].sort().map((name) => [name, describeReference(name)]))
    return contractOf(profile, references, interactions)
  }

  clear(): void {
    const before = this.bytes
    this.#characters = 0
    this.#seen.clear()
    this.#interactions.length = 0
    this.#created.clear()
    this.#used.clear()
    this.#dropped = 0
    this.onBytes?.(-before)
  }

  #withinBudget(interaction: Interaction): string | undefined {
    const text = JSON.stringify(interaction)
    if (this.#characters + text.length > MAX_CHARACTERS) return void this.#dropped++
    this.#characters += text.length
    this.onBytes?.(text.length)
    return text
  }

  async #normalise(recording: Recording, response: Uint8Array | Response, n: number): Promise<Interaction> {
    const { world, url, body, operation, method } = recording
    const seeded = referenceTable(world.referenced())
    // Looked up in both, never merged: a copy of every created id per interaction made long runs quadratic.
    const table = { get: (id: string) => seeded.get(id) ?? this.#created.get(id) }
    const used = this.#used
    const answer = await answerJson(response)
    // Only the first value a bulk add created is named: it is the one its example shows, and no request of
    // the API takes a value's id, so naming every one would only grow the recorder.
    const first = operation === 'bulk_add_values' && Array.isArray(answer) ? (answer[0] as { id?: unknown }) : null
    if (typeof first?.id === 'string') this.#created.set(first.id.toLowerCase(), `value 0 of interaction ${n}`)
    const text = body && utf8.decode(body)
    return {
      test: this.test,
      n,
      operation,
      method,
      path: referTo(url.pathname, table, used),
      query: referTo(url.search.slice(1), table, used),
      ...(text === undefined ? {} : requestBody(text, (json) => referToInJson(json, table, used))),
      role: await recording.role(),
      response: summary(recording.response.status, answer, (value) => referToInJson(value, table, used)),
    }
  }
}

/**
 * Keys that tell requests apart, each short whatever the request: a key as long as its request would outgrow what
 * the recorder keeps. Every request the API answers is keyed, so the common case costs no hashing: a short request
 * line is its own key, and the `Authorization` value (a token of a few hundred characters, the same from one
 * request to the next) is hashed once while it repeats. Anything longer is hashed (cyrb53, 53 bits: requests alike
 * in those are, here, the same); a hash starts with `#`, and so is any text that does.
 */
class RequestKeys {
  #authorization: string | null = null
  #authorizationKey = '#'

  of(line: string, authorization: string | null, body: Uint8Array | undefined): string {
    if (authorization !== this.#authorization) {
      this.#authorization = authorization
      // `#` alone is no text's key: no header is told apart from an empty one.
      this.#authorizationKey = authorization === null ? '#' : textKey(authorization)
    }
    const bodyKey = body ? `${body.byteLength}:${cyrb53(body.length, (i) => body[i] as number)}` : ''
    return `${textKey(line)}\n${this.#authorizationKey}\n${bodyKey}`
  }
}

/** Text up to this many characters is its own key; longer text is hashed. */
const RAW_KEY_CHARACTERS = 96

/**
 * The text itself if short, else `#` and its hash (read by index: a generator of its character codes cost ~10 µs
 * a request).
 */
const textKey = (text: string): string =>
  text.length <= RAW_KEY_CHARACTERS && !text.startsWith('#')
    ? text
    : `#${cyrb53(text.length, (i) => text.charCodeAt(i))}`

/** cyrb53 of `length` values, the i-th being `at(i)`. */
function cyrb53(length: number, at: (index: number) => number): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < length; i++) {
    const value = at(i)
    h1 = Math.imul(h1 ^ value, 2654435761)
    h2 = Math.imul(h2 ^ value, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}

/** The answer's JSON (undefined: none, or not JSON). */
async function answerJson(response: Uint8Array | Response): Promise<unknown> {
  const bytes = response instanceof Uint8Array ? response : new Uint8Array(await response.arrayBuffer())
  const parsed = parseJson(utf8.decode(bytes))
  return parsed.ok ? parsed.value : undefined
}

/** A JSON body normalised, or text that is not JSON as it was. */
function requestBody(text: string, normalise: (json: unknown) => unknown): Pick<Interaction, 'body' | 'rawBody'> {
  const parsed = parseJson(text)
  return parsed.ok ? { body: normalise(parsed.value) } : { rawBody: text }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** A list or a bulk add kept as its count and first record; anything else whole. */
function summary(status: number, answer: unknown, normalise: (value: unknown) => unknown): RecordedAnswer {
  const example = (records: unknown[]) => (records.length > 0 ? { example: normalise(withoutTimes(records[0])) } : {})
  if (Array.isArray(answer)) return { status, count: answer.length, ...example(answer) }
  const list = answer as { results?: unknown; total?: unknown } | null | undefined
  if (list && Array.isArray(list.results) && typeof list.total === 'number')
    return { status, total: list.total, count: list.results.length, ...example(list.results) }
  return answer === undefined ? { status } : { status, body: normalise(answer) }
}

/** A record with its timestamps written as 0: the run's clock is not part of the contract. */
function withoutTimes(record: unknown): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return record
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key,
      TIMESTAMPS.includes(key) && typeof value === 'number' ? 0 : value,
    ]),
  )
}
