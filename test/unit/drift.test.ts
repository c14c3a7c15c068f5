/**
 * The drift comparison (verify/drift/) judges a difference between the server's /openapi.json and the mock's by
 * what it changes on the wire: each server document here is the mock's own, changed the way a real server's
 * differs, and must fail exactly where a client built against the mock could break.
 */
import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '../../fastapi/openapi/document.js'
import { DEFAULT_PROFILE } from '../../model/profile.js'
import { compareDocuments } from '../../verify/drift/index.js'
import type { OpenApiDocument } from '../../verify/drift/openapi-source.js'

type Json = any

const mock = buildOpenApiDocument(DEFAULT_PROFILE) as OpenApiDocument
const PERSONAS = '/v1/personas/'
const BULK = '/v1/demographics/{dimension_id}/values/bulk'
const RULES = '/v1/policies/{policy_id}/rules'

/** The mock's document, changed. */
function server(change: (document: Json) => void = () => {}): Json {
  const document = structuredClone(mock) as Json
  change(document)
  return document
}
const parameter = (document: Json, name: string) =>
  document.paths[PERSONAS].get.parameters.find((item: Json) => item.name === name)
const schemas = (document: Json) => document.components.schemas

const failures = (document: Json) =>
  compareDocuments(document, mock)
    .filter((finding) => finding.verdict === 'failure')
    .map((finding) => finding.message)
const notes = (document: Json) =>
  compareDocuments(document, mock)
    .filter((finding) => finding.verdict === 'note')
    .map((finding) => (finding.topic ? `${finding.topic}: ${finding.message}` : finding.message))

/** OpenAPI 3.0 as FastAPI <0.99 writes it: `nullable: true` instead of `anyOf [X, {type: null}]`. */
function asOpenApi30(value: Json): Json {
  if (Array.isArray(value)) return value.map(asOpenApi30)
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value).map(([key, item]) => [key, asOpenApi30(item)])
  const object = Object.fromEntries(entries)
  const members = object.anyOf?.filter((member: Json) => member.type !== 'null')
  if (!members || members.length === object.anyOf.length) return object
  const { anyOf: _, ...rest } = object
  return members.length === 1 ? { ...members[0], ...rest, nullable: true } : { ...rest, anyOf: members, nullable: true }
}

/** Every key order reversed. */
function reversed(value: Json): Json {
  if (Array.isArray(value)) return value.map(reversed)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversed(item)]),
  )
}

describe('fails what changes what a client may send or receive', () => {
  it('a tighter bound', () => {
    const document = server((doc) => {
      parameter(doc, 'limit').schema.maximum = 50
      schemas(doc).BulkAddValues.properties.values.minItems = 1
    })
    expect(failures(document)).toEqual([
      `GET ${PERSONAS}: query parameter limit: maximum 100 in the mock, 50 on the server`,
    ])
    // The description sets no least number of values: a declared one is the server's choice, a warning.
    expect(
      compareDocuments(document, mock)
        .filter((finding) => finding.message.includes('minItems'))
        .map((f) => f.verdict),
    ).toEqual(['warning'])
  })

  it('a parameter the server requires', () => {
    const document = server((doc) => (parameter(doc, 'search').required = true))
    expect(failures(document)).toEqual([
      `GET ${PERSONAS}: query parameter search: required false in the mock, true on the server`,
    ])
  })

  it('another type or format in a request', () => {
    const document = server((doc) => {
      schemas(doc).DemographicValueCreate.properties.sort_order = { type: 'string', title: 'Sort Order' }
      schemas(doc).DemographicValueCreate.properties.value.format = 'email'
    })
    expect(failures(document)).toEqual([
      `POST ${BULK} body.values[].value: format none in the mock, "email" on the server`,
      `POST ${BULK} body.values[].sort_order: integer in the mock, string on the server`,
    ])
  })

  it('a field missing from an answer, or of another type', () => {
    const document = server((doc) => {
      delete schemas(doc).Persona.properties.role
      schemas(doc).Persona.properties.created_at = { type: 'string', format: 'date-time' }
    })
    expect(failures(document)).toEqual([
      `GET ${PERSONAS} 200.results[].role: not in the server's document`,
      `GET ${PERSONAS} 200.results[].created_at: integer in the mock, string on the server`,
    ])
  })

  it('null where the mock never sends null, however the server spells it', () => {
    const nullable = { anyOf: [{ type: 'string' }, { type: 'null' }] }
    const pydantic2 = server((doc) => (schemas(doc).Provenance.properties.model_used = nullable))
    const pydantic1 = asOpenApi30(pydantic2)
    pydantic1.openapi = '3.0.2'
    const openApi31 = server((doc) => (schemas(doc).Provenance.properties.model_used = { type: ['string', 'null'] }))
    for (const document of [pydantic2, pydantic1, openApi31])
      expect(failures(document)).toEqual([
        `GET ${RULES} 200.results[].provenance.model_used: nullable on the server only`,
      ])
  })

  it('a documented answer the server does not declare', () => {
    const document = server((doc) => {
      const responses = doc.paths[BULK].post.responses
      responses['200'] = responses['201']
      delete responses['201']
    })
    expect(failures(document)).toEqual([`POST ${BULK}: the mock answers 201, the server's document declares 200, 422`])
  })
})

describe('notes what changes nothing a client of the mock relies on', () => {
  it('the nullability of a query parameter (no query string carries null)', () => {
    const document = server((doc) => {
      for (const name of ['team_id', 'intents', 'is_preset', 'search'])
        parameter(doc, name).schema = parameter(doc, name).schema.anyOf[0]
    })
    expect(failures(document)).toEqual([])
    expect(notes(document)).toHaveLength(4)
    expect(notes(document)[0]).toMatch(/^a query or path parameter cannot carry null: nullability not compared: GET/)
  })

  it('titles, descriptions, examples, $ref names and key order', () => {
    const document = server((doc) => {
      for (const schema of Object.values<Json>(schemas(doc))) {
        schema.title = `${schema.title} model`
        schema.description = 'Described by the server'
      }
      parameter(doc, 'search').schema.examples = ['billing']
      parameter(doc, 'search').description = 'In name, description or role'
    })
    const renamed = JSON.parse(
      JSON.stringify(reversed(document))
        .replaceAll('"#/components/schemas/Persona"', '"#/components/schemas/PersonaOut"')
        .replace('"Persona":', '"PersonaOut":'),
    )
    expect(compareDocuments(renamed, mock)).toEqual([])
  })

  it("OpenAPI 3.0's spelling of the same document", () => {
    const document = asOpenApi30(server())
    document.openapi = '3.0.2'
    expect(compareDocuments(document, mock)).toEqual([])
  })

  it('the names of path parameters (not on the wire)', () => {
    const document = server((doc) => {
      const operation = doc.paths[RULES]
      operation.get.parameters[0].name = 'id'
      delete doc.paths[RULES]
      doc.paths['/v1/policies/{id}/rules'] = operation
    })
    expect(compareDocuments(document, mock)).toEqual([])
  })

  it('extra declared answers, looser bounds, other defaults and undescribed answers', () => {
    const document = server((doc) => {
      doc.paths[PERSONAS].get.responses['404'] = { description: 'Not Found' }
      delete parameter(doc, 'limit').schema.maximum
      parameter(doc, 'offset').schema.default = 5
      doc.paths[RULES].get.responses['200'].content['application/json'].schema = {}
    })
    expect(failures(document)).toEqual([])
    expect(notes(document)).toEqual([
      `more lenient than the mock: GET ${PERSONAS}: query parameter limit: maximum 100 in the mock, none on the server`,
      `document only: GET ${PERSONAS}: query parameter offset: default 0 in the mock, 5 on the server`,
      `beyond the mock: GET ${PERSONAS}: the server also declares a 404 answer`,
      `document only: GET ${RULES} 200: the server's document does not describe it`,
    ])
  })

  it('a wider type in a request, a narrower one in an answer', () => {
    const document = server((doc) => {
      schemas(doc).DemographicValueCreate.properties.sort_order = { type: 'number' }
      schemas(doc).SourceLocation.properties.paragraph = { type: 'integer', minimum: 1 }
      schemas(doc).Provenance.properties.confidence_score = { type: 'integer' }
    })
    expect(failures(document)).toEqual([])
    expect(notes(document)).toEqual([
      `more lenient than the mock: POST ${BULK} body.values[].sort_order: integer in the mock, number on the server`,
      `narrower than the mock: GET ${RULES} 200.results[].provenance.confidence_score: number in the mock, integer on the server`,
      `document only: GET ${RULES} 200.results[].provenance.source_location.paragraph: minimum none in the mock, 1 on the server`,
    ])
  })
})
