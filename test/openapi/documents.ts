import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

/** The two documents of test/openapi/app.py: FastAPI 0.92's 3.0 one, and the 3.1 one FastAPI >= 0.100 writes. */
export const DOCUMENTS = {
  '3.0': resolve(import.meta.dirname, 'openapi-3.0.json'),
  '3.1': resolve(import.meta.dirname, 'openapi-3.1.json'),
} as const

export const readDocument = (path: string): Record<string, any> => JSON.parse(readFileSync(path, 'utf8'))

/**
 * The document's components as FastAPI 0.92 answers them: pydantic 1 writes `Optional[X] = None` as X, not
 * nullable, yet answers `null` for it (its own answers do not fit its 3.0 document); such fields are nullable here.
 */
function components(document: Record<string, any>): unknown {
  if (document.openapi.startsWith('3.1')) return document.components
  const schemas = Object.fromEntries(
    Object.entries(document.components.schemas as Record<string, any>).map(([name, schema]) => {
      if (!schema.properties) return [name, schema]
      const required = new Set(schema.required ?? [])
      const properties = Object.fromEntries(
        Object.entries(schema.properties as Record<string, any>).map(([field, property]) => [
          field,
          required.has(field)
            ? property
            : property.$ref
              ? { allOf: [property], nullable: true }
              : { ...property, nullable: true },
        ]),
      )
      return [name, { ...schema, properties }]
    }),
  )
  return { ...document.components, schemas }
}

/**
 * Checks an answer against the document with ajv (not the mock's own reading of it): the declared response of
 * the operation for that status, its content type, and its body against the schema (3.0 with ajv's `nullable`,
 * 3.1 as JSON Schema 2020-12), formats included.
 * @returns the problems found (none: it fits)
 */
export function answerChecker(document: Record<string, any>) {
  const ajv = document.openapi.startsWith('3.1')
    ? new Ajv2020({ strict: false, allErrors: true })
    : new Ajv({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const compiled = new Map<object, ValidateFunction>()
  return async (method: string, template: string, response: Response): Promise<string[]> => {
    const declared = document.paths[template]?.[method.toLowerCase()]?.responses?.[String(response.status)]
    if (!declared) return [`${method} ${template} declares no ${response.status} answer`]
    const text = await response.clone().text()
    const media = declared.content && Object.entries(declared.content)[0]
    if (!media) return text === '' ? [] : [`${response.status} declares no content, got ${text}`]
    const [type, { schema }] = media as [string, { schema: object }]
    if (response.headers.get('content-type') !== type)
      return [`content-type ${response.headers.get('content-type')}, declared ${type}`]
    let validate = compiled.get(schema)
    if (!validate) {
      validate = ajv.compile({ ...schema, components: components(document) })
      compiled.set(schema, validate)
    }
    return validate(JSON.parse(text)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
}
