/**
 * A team's own OpenAPI document, as FastAPI writes it (3.0 before FastAPI 0.100, 3.1 from it), read into the
 * operations the mock serves from it. Only local references (`#/components/...`) are followed: FastAPI writes
 * no other. They are followed where a schema is read ({@link ServedDocument.deref}), so a recursive model
 * (a tree of comments) is no endless structure.
 */
import { type Checked, generationBoundProblem, pointerPart } from './generation-bounds.js'

/** A JSON Schema object as FastAPI's documents hold them (3.0's or 3.1's dialect). */
export type JsonSchema = { readonly [key: string]: unknown }

export interface DocumentParameter {
  readonly name: string
  readonly in: 'path' | 'query' | 'header' | 'cookie'
  readonly required: boolean
  readonly schema: JsonSchema
}

/** One operation of the document: what a request must hold and what it answers. */
export interface DocumentOperation {
  /** Upper case, as the router compares it. */
  readonly method: string
  readonly path: string
  readonly operationId: string | undefined
  readonly parameters: readonly DocumentParameter[]
  /** The JSON body's schema, where the operation takes one. */
  readonly body: { readonly schema: JsonSchema; readonly required: boolean } | undefined
  /** The declared success answer: the first 2xx, its content type and schema (none for a 204). */
  readonly success: { readonly status: number; readonly contentType?: string; readonly schema?: JsonSchema }
  /** The 404's `detail` where the document gives an example of it. */
  readonly notFoundDetail: string | undefined
  /** Whether the operation is secured by an HTTP bearer scheme (FastAPI's `HTTPBearer`). */
  readonly bearer: boolean
}

export class DocumentError extends Error {
  override name = 'DocumentError'
}

/** Keys whose values are data, not schemas: a `$ref` inside them is no reference. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const'])
/** Keys whose values map names to schemas: a key inside them is a name, whatever it is. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'schemas'])

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const

/** The document's operations and its schemas, references followed on demand. */
export class ServedDocument {
  readonly version: '3.0' | '3.1'
  readonly operations: readonly DocumentOperation[]
  readonly #raw: JsonSchema

  /**
   * @param raw the parsed `/openapi.json`
   * @throws DocumentError when it is not an OpenAPI 3.0 or 3.1 document, or a reference leads nowhere
   */
  constructor(raw: unknown) {
    if (typeof raw === 'string' || raw instanceof URL)
      throw new DocumentError(
        `The OpenAPI document must be the parsed JSON object, got ${JSON.stringify(String(raw))}: here it is not read ` +
          'from a file or URL (createMockServer, the Vite plugin and --openapi read one), so give ' +
          'JSON.parse(readFileSync(path, "utf8")).',
      )
    if (!isObject(raw)) throw new DocumentError('The OpenAPI document must be a JSON object.')
    const version = typeof raw.openapi === 'string' ? /^3\.([01])\./.exec(raw.openapi) : null
    if (!version)
      throw new DocumentError(
        `Not an OpenAPI 3.0 or 3.1 document (its "openapi" is ${JSON.stringify(raw.openapi)}): serve /openapi.json of a FastAPI app.`,
      )
    this.version = version[1] === '0' ? '3.0' : '3.1'
    this.#raw = raw
    this.#checkReferences()
    this.operations = this.#readOperations()
    this.#checkGenerationBounds()
  }

  /** The document as it was given (parsed JSON): what the mock's own `/openapi.json` and Pact files take from. */
  get raw(): JsonSchema {
    return this.#raw
  }

  /** The schema a `$ref` names (followed until it names none); any other schema as it is. */
  deref(schema: unknown): JsonSchema {
    let current = schema
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
      if (hops > 32) throw new DocumentError(`The reference ${current.$ref} leads in a circle.`)
      current = this.#pointer(current.$ref)
    }
    return isObject(current) ? current : {}
  }

  #pointer(ref: string): unknown {
    if (!ref.startsWith('#/')) throw new DocumentError(`Only local references are followed, not ${ref}.`)
    let node: unknown = this.#raw
    for (const part of ref.slice(2).split('/')) {
      const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~')
      node = isObject(node) ? node[key] : undefined
      if (node === undefined) throw new DocumentError(`The reference ${ref} names nothing in the document.`)
    }
    return node
  }

  /**
   * Follows every reference once, at start: one that leads nowhere stops the start saying where it is, where it
   * would otherwise answer 500 to every request of its operation. Values that are data (examples, defaults,
   * enums) are not schemas, so a `$ref` key inside them is left alone.
   */
  #checkReferences(): void {
    const pending: Array<[unknown, string, boolean]> = [[this.#raw, '', false]]
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [node, at, named] = next
      if (Array.isArray(node)) for (const [index, item] of node.entries()) pending.push([item, `${at}/${index}`, false])
      if (!isObject(node)) continue
      if (typeof node.$ref === 'string' && !named) this.#referenceAt(node.$ref, at)
      for (const [key, value] of Object.entries(node)) {
        // In a map of names (a model's properties), `default` is a field's name, not data.
        if (DATA_KEYS.has(key) && !named) continue
        pending.push([value, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, NAME_MAPS.has(key) && !named])
      }
    }
  }

  #referenceAt(ref: string, at: string): void {
    try {
      this.#pointer(ref)
    } catch (error) {
      throw new DocumentError(`${(error as Error).message} (at #${at})`)
    }
  }

  /**
   * Refuses at start an answer schema whose smallest value is more than the mock generates: its records are
   * generated on the first request, which would otherwise run the process out of memory then.
   */
  #checkGenerationBounds(): void {
    const resolve = (schema: unknown, at: string) => {
      let current = schema
      let where = at
      for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops <= 32; hops++) {
        where = current.$ref
        current = this.#pointer(current.$ref)
      }
      return { schema: isObject(current) ? current : {}, at: where }
    }
    const checked: Checked = new Map()
    for (const { method, path, success } of this.operations) {
      if (!success.schema) continue
      const at = `#/paths/${pointerPart(path)}/${method.toLowerCase()}/responses/${success.status}/content/${pointerPart(success.contentType ?? '')}/schema`
      const problem = generationBoundProblem(success.schema, at, resolve, checked)
      if (problem)
        throw new DocumentError(
          `${method} ${path}: ${problem}; lower that bound in the document, or leave the operation out of it.`,
        )
    }
  }

  #readOperations(): DocumentOperation[] {
    const paths = isObject(this.#raw.paths) ? this.#raw.paths : {}
    const schemes = isObject(this.#raw.components) ? this.#raw.components.securitySchemes : undefined
    const globalSecurity = this.#raw.security
    return Object.entries(paths).flatMap(([path, item]) => {
      const pathItem = this.deref(item)
      return METHODS.filter((method) => isObject(pathItem[method])).map((method) => {
        const operation = pathItem[method] as JsonSchema
        const parameters = [...asArray(pathItem.parameters), ...asArray(operation.parameters)].map((parameter) =>
          this.#parameter(parameter),
        )
        return {
          method: method.toUpperCase(),
          path,
          operationId: typeof operation.operationId === 'string' ? operation.operationId : undefined,
          parameters,
          body: this.#body(operation.requestBody),
          success: this.#success(operation.responses),
          notFoundDetail: this.#notFoundDetail(operation.responses),
          bearer: isBearer(operation.security ?? globalSecurity, schemes, (value) => this.deref(value)),
        }
      })
    })
  }

  #parameter(raw: unknown): DocumentParameter {
    const parameter = this.deref(raw)
    return {
      name: String(parameter.name),
      in: parameter.in as DocumentParameter['in'],
      required: parameter.required === true,
      schema: isObject(parameter.schema) ? parameter.schema : {},
    }
  }

  #body(raw: unknown): DocumentOperation['body'] {
    if (raw === undefined) return undefined
    const body = this.deref(raw)
    const content = isObject(body.content) ? body.content : {}
    const json = Object.entries(content).find(([type]) => /^application\/(.+\+)?json/.test(type))?.[1]
    if (!isObject(json)) return undefined
    return { schema: isObject(json.schema) ? json.schema : {}, required: body.required === true }
  }

  #success(raw: unknown): DocumentOperation['success'] {
    const responses = isObject(raw) ? raw : {}
    const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code)) ?? '200'
    const response = this.deref(responses[status])
    const content = isObject(response.content) ? Object.entries(response.content) : []
    const [contentType, media] = content[0] ?? []
    if (contentType === undefined) return { status: Number(status) }
    const schema = isObject(media) && isObject(media.schema) ? media.schema : undefined
    return { status: Number(status), contentType, schema }
  }

  #notFoundDetail(raw: unknown): string | undefined {
    const response = isObject(raw) && raw['404'] !== undefined ? this.deref(raw['404']) : undefined
    const media = response && isObject(response.content) ? response.content['application/json'] : undefined
    const example = isObject(media) ? (media.example ?? firstExample(media.examples)) : undefined
    return isObject(example) && typeof example.detail === 'string' ? example.detail : undefined
  }
}

function firstExample(examples: unknown): unknown {
  if (!isObject(examples)) return undefined
  const first = Object.values(examples)[0]
  return isObject(first) && 'value' in first ? first.value : undefined
}

/** Whether any requirement of `security` names an HTTP bearer scheme. */
function isBearer(security: unknown, schemes: unknown, deref: (value: unknown) => JsonSchema): boolean {
  return asArray(security).some(
    (requirement) =>
      isObject(requirement) &&
      Object.keys(requirement).some((name) => {
        const scheme = isObject(schemes) ? deref(schemes[name]) : {}
        return scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer'
      }),
  )
}

/** The document as given, whether read already or not. */
export const rawDocument = (openapi: ServedDocument | object | undefined): object | undefined =>
  openapi instanceof ServedDocument ? openapi.raw : openapi

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const asArray = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : [])
