/**
 * The drift comparison (verify/drift/) judges a difference between the server's /openapi.json and the mock's by
 * what it changes on the wire: each server document here is the mock's own, changed the way a real server's
 * differs, and must fail exactly where a client built against the mock could break.
 */
import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '../../fastapi/openapi/document.js'
import { DEFAULT_PROFILE, Profile } from '../../model/profile.js'
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
const warnings = (document: Json) =>
  compareDocuments(document, mock)
    .filter((finding) => finding.verdict === 'warning')
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

describe('fails a tighter bound only where the description gives the bound', () => {
  const rulesParameter = (document: Json, name: string) =>
    document.paths[RULES].get.parameters.find((item: Json) => item.name === name)

  it('warns of bounds on fields and parameters the description leaves unbounded (Debian FastAPI apps)', () => {
    const document = server((doc) => {
      const item = schemas(doc).DemographicValueCreate.properties
      item.value.maxLength = 64
      item.display_name.anyOf[0].maxLength = 100
      item.sort_order.anyOf[0].minimum = 0
      parameter(doc, 'search').schema.anyOf[0].minLength = 1
    })
    expect(failures(document)).toEqual([])
    const open = (words: string) =>
      `left open by the description (the description sets no ${words}, and no profile setting changes it)`
    expect(warnings(document)).toEqual([
      `GET ${PERSONAS}: query parameter search: minLength none in the mock, 1 on the server: ${open('minimum this tight: the mock takes an empty string')}`,
      // The one bound of these a profile setting expresses: a profile finding.
      `POST ${BULK} body.values[].value: maxLength 255 in the mock, 64 on the server: a profile finding: bounds.valueMaxLength: 64 in the profile aligns the mock (the description leaves it open)`,
      `POST ${BULK} body.values[].display_name: maxLength none in the mock, 100 on the server: ${open('maximum this tight: the mock takes strings of more than 100 characters')}`,
      `POST ${BULK} body.values[].sort_order: minimum none in the mock, 0 on the server: ${open('minimum this tight: the mock takes values below 0')}`,
    ])
  })

  it('warns of a bound beyond the described one: an offset with a maximum, a value with a longer minimum', () => {
    const document = server((doc) => {
      parameter(doc, 'offset').schema.maximum = 10_000
      rulesParameter(doc, 'offset').schema.maximum = 10_000
      schemas(doc).DemographicValueCreate.properties.value.minLength = 2
    })
    expect(failures(document)).toEqual([])
    expect(warnings(document)).toHaveLength(3)
  })

  it('fails every bound the description gives, tightened, and an id length no UUID fits, and nothing else', () => {
    const document = server((doc) => {
      schemas(doc).DemographicValueCreate.properties.display_name.anyOf[0].maxLength = 100
      schemas(doc).BulkAddValues.properties.values.maxItems = 500
      parameter(doc, 'limit').schema.maximum = 50
      parameter(doc, 'offset').schema.minimum = 1
      rulesParameter(doc, 'limit').schema.minimum = 2
      rulesParameter(doc, 'limit').schema.exclusiveMaximum = 1000
      parameter(doc, 'team_id').schema.anyOf[0].maxLength = 32
    })
    expect(failures(document)).toEqual([
      `GET ${PERSONAS}: query parameter team_id: maxLength none in the mock, 32 on the server`,
      `GET ${PERSONAS}: query parameter limit: maximum 100 in the mock, 50 on the server`,
      `GET ${PERSONAS}: query parameter offset: minimum 0 in the mock, 1 on the server`,
      `GET ${RULES}: query parameter limit: minimum 1 in the mock, 2 on the server`,
      `GET ${RULES}: query parameter limit: exclusiveMaximum none in the mock, 1000 on the server`,
    ])
  })

  it('fails the described rules range under the paging names of the profile', () => {
    const paged = buildOpenApiDocument(
      Profile.parse({ rulesPaging: { limit: 'page_size', offset: 'skip' } }),
    ) as OpenApiDocument
    const document = structuredClone(paged) as Json
    rulesParameter(document, 'page_size').schema.maximum = 500
    rulesParameter(document, 'skip').schema.maximum = 500
    const findings = compareDocuments(document, paged)
    expect(findings.filter((finding) => finding.verdict === 'failure').map((finding) => finding.message)).toEqual([
      `GET ${RULES}: query parameter page_size: maximum 1000 in the mock, 500 on the server`,
    ])
    expect(findings.filter((finding) => finding.verdict === 'warning').map((finding) => finding.message)).toEqual([
      expect.stringMatching(/^GET .*: query parameter skip: maximum none in the mock, 500 on the server: left open/),
    ])
  })

  it('takes a bound that keeps every value the description allows: `gt=0`, an id of at most 36 characters', () => {
    const document = server((doc) => {
      parameter(doc, 'limit').schema = { type: 'integer', exclusiveMinimum: 0, maximum: 100, default: 10 }
      parameter(doc, 'team_id').schema.anyOf[0].maxLength = 36
    })
    expect(failures(document)).toEqual([])
    expect(warnings(document)).toEqual([
      expect.stringMatching(/query parameter team_id: maxLength none in the mock, 36 on the server: left open/),
    ])
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
