/**
 * The mock's own `/openapi.json` with the operations it serves from a team's document added
 * (docs/openapi.md#the-mocks-own-openapijson). The mock's own operations, components and version stay as
 * FastAPI writes them; the document's operations join its paths, and its components join the mock's:
 * - a component the mock has under the same name and the same content is shared;
 * - one whose name the mock uses for another content is renamed `served__<name>` (FastAPI's own way of
 *   telling two models of one name apart is a prefix), and every reference to it follows;
 * - the nullability of a document of the other OpenAPI version is written in the mock's version's words
 *   (3.0's `nullable: true`, 3.1's `anyOf [..., {"type": "null"}]`), as are exclusive bounds.
 */

type Json = Record<string, unknown>

/** An operation of the document to list: its method (any case) and path template. */
export interface ListedOperation {
  readonly method: string
  readonly path: string
}

const SCHEMA_REF = /^#\/components\/([^/]+)\/(.+)$/

/**
 * @param own the mock's own document, as built (it may hold Python values: it is not copied, only extended)
 * @param served the team's document, parsed
 * @param operations the document's operations the mock serves
 * @param plain `own`'s component as plain JSON, to compare with the document's
 */
export function withServedOperations(
  own: Json,
  served: Json,
  operations: readonly ListedOperation[],
  plain: (value: unknown) => unknown,
): Json {
  const ownComponents = (own.components ?? {}) as Record<string, Json>
  const servedComponents = (isObject(served.components) ? served.components : {}) as Record<string, Json>
  const components: Record<string, Json> = Object.fromEntries(
    Object.entries(ownComponents).map(([kind, named]) => [kind, { ...named }]),
  )
  const renamed = new Map<string, string>()
  for (const [kind, named] of Object.entries(servedComponents)) {
    if (!isObject(named)) continue
    const into = (components[kind] ??= {})
    for (const name of Object.keys(named)) {
      if (!(name in into)) continue
      if (canonical(plain(into[name])) === canonical(named[name])) renamed.set(`${kind}/${name}`, name)
      else renamed.set(`${kind}/${name}`, freeName(`served__${name}`, into, named))
    }
  }
  const convert = dialectConverter(String(own.openapi), String(served.openapi))
  const rewrite = (value: unknown) => convert(withReferences(value, renamed))
  for (const [kind, named] of Object.entries(servedComponents)) {
    if (!isObject(named)) continue
    for (const [name, value] of Object.entries(named)) {
      const as = renamed.get(`${kind}/${name}`) ?? name
      if (as !== name || !(as in components[kind]!)) components[kind]![as] = rewrite(value)
    }
  }
  const paths: Json = { ...(own.paths as Json) }
  const servedPaths = isObject(served.paths) ? served.paths : {}
  for (const { method, path } of operations) {
    const item = servedPaths[path]
    const operation = isObject(item) ? item[method.toLowerCase()] : undefined
    if (!isObject(item) || !isObject(operation)) continue
    const shared = Array.isArray(item.parameters) ? item.parameters : []
    const parameters = [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
    const written = rewrite({ ...operation, ...(parameters.length > 0 && { parameters }) }) as Json
    if (Array.isArray(written.security)) written.security = written.security.map((item) => securityOf(item, renamed))
    paths[path] = { ...(paths[path] as Json | undefined), [method.toLowerCase()]: written }
  }
  return { ...own, paths, components }
}

/** `base`, or `base2`, `base3`... : a name neither document uses. */
function freeName(base: string, own: Json, served: Json): string {
  let name = base
  for (let n = 2; name in own || name in served; n++) name = `${base}${n}`
  return name
}

/** The value with every `$ref` to a renamed component pointing at its new name. */
function withReferences(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withReferences(item, renamed))
  if (!isObject(value)) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key !== '$ref' || typeof item !== 'string') return [key, withReferences(item, renamed)]
      const [, kind, name] = SCHEMA_REF.exec(item) ?? []
      const as = kind && name !== undefined ? renamed.get(`${kind}/${name}`) : undefined
      return [key, as === undefined ? item : `#/components/${kind}/${as}`]
    }),
  )
}

/** A security requirement with renamed schemes under their new names (they are named, not referenced). */
function securityOf(requirement: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (!isObject(requirement)) return requirement
  return Object.fromEntries(
    Object.entries(requirement).map(([name, scopes]) => [renamed.get(`securitySchemes/${name}`) ?? name, scopes]),
  )
}

/** Rewrites schemas of the document's version into the mock's: the identity when they are the same. */
function dialectConverter(ownVersion: string, servedVersion: string): (value: unknown) => unknown {
  const own31 = ownVersion.startsWith('3.1')
  if (own31 === servedVersion.startsWith('3.1')) return (value) => value
  const convert = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(convert)
    if (!isObject(value)) return value
    const converted = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convert(item)]))
    return own31 ? to31(converted) : to30(converted)
  }
  return convert
}

/** 3.0's `nullable` and boolean exclusive bounds in 3.1's words. */
function to31(schema: Json): Json {
  const { nullable, exclusiveMinimum, exclusiveMaximum, minimum, maximum, ...rest } = schema
  const bounds: Json = { ...(minimum !== undefined && { minimum }), ...(maximum !== undefined && { maximum }) }
  if (exclusiveMinimum === true) (bounds.exclusiveMinimum = minimum), delete bounds.minimum
  if (exclusiveMaximum === true) (bounds.exclusiveMaximum = maximum), delete bounds.maximum
  const written = { ...rest, ...bounds }
  if (nullable !== true) return written
  const { title, description, default: fallback, ...type } = written
  const described = { title, description, default: fallback }
  const kept = Object.fromEntries(Object.entries(described).filter(([, value]) => value !== undefined))
  return { anyOf: [type, { type: 'null' }], ...kept }
}

/** 3.1's `anyOf [..., {"type": "null"}]` and numeric exclusive bounds in 3.0's words. */
function to30(schema: Json): Json {
  const { exclusiveMinimum, exclusiveMaximum, ...written } = schema
  if (typeof exclusiveMinimum === 'number')
    Object.assign(written, { minimum: exclusiveMinimum, exclusiveMinimum: true })
  if (typeof exclusiveMaximum === 'number')
    Object.assign(written, { maximum: exclusiveMaximum, exclusiveMaximum: true })
  if (!Array.isArray(written.anyOf)) return written
  const others = written.anyOf.filter((branch) => !(isObject(branch) && branch.type === 'null'))
  if (others.length === written.anyOf.length) return written
  const { anyOf: _, ...rest } = written
  const [only] = others
  if (others.length > 1) return { ...rest, anyOf: others, nullable: true }
  if (isObject(only) && typeof only.$ref === 'string') return { ...rest, allOf: [only], nullable: true }
  return { ...rest, ...(isObject(only) ? only : {}), nullable: true }
}

/** JSON text with keys sorted: two values alike whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    isObject(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item,
  )
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
