import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PROFILE, resolveProfile } from 'agent-console-mock'
import { buildOpenApiDocument } from '../../fastapi/openapi/document.js'
import { docsPageHtml } from '../../fastapi/openapi/docs-page.js'
import { swaggerUiAssetsDir } from '../../server/docs.js'
import * as enums from '../../model/enums.js'
import * as requests from '../../model/requests.js'
import * as schemas from '../../model/schemas.js'

type Json = Record<string, any>

const doc = buildOpenApiDocument(DEFAULT_PROFILE) as Json
const personas = doc.paths['/v1/personas/'].get
const bulkAdd = doc.paths['/v1/demographics/{dimension_id}/values/bulk'].post
const rules = doc.paths['/v1/policies/{policy_id}/rules'].get
const componentSchemas = doc.components.schemas as Json

/** The compact bytes Python's `json.dumps(..., separators=(",", ":"))` writes; same key order as FastAPI. */
const bytes = (value: unknown) => JSON.stringify(value)

const VALIDATION_RESPONSE =
  '{"description":"Validation Error","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}'

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc))
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2))
    expect(result.valid).toBe(true)
  })

  it("has FastAPI's top-level layout, and only the API's routes", () => {
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'paths', 'components'])
    expect(doc.openapi).toBe('3.1.0')
    expect(bytes(doc.info)).toBe('{"title":"Agent Management Console API","version":"0.1.0"}')
    expect(Object.keys(doc.paths)).toEqual([
      '/v1/personas/',
      '/v1/demographics/{dimension_id}/values/bulk',
      '/v1/policies/{policy_id}/rules',
    ])
    expect(bytes(doc)).not.toMatch(/__mock|"\/docs|"default":null/)
  })

  it('gives each operation its tags, summary, operationId and security, in FastAPI key order', () => {
    expect(Object.keys(personas)).toEqual(['tags', 'summary', 'operationId', 'security', 'parameters', 'responses'])
    expect(Object.keys(bulkAdd)).toEqual([
      'tags',
      'summary',
      'operationId',
      'security',
      'parameters',
      'requestBody',
      'responses',
    ])
    expect([personas.operationId, bulkAdd.operationId, rules.operationId]).toEqual([
      'list_personas_v1_personas__get',
      'bulk_add_values_v1_demographics__dimension_id__values_bulk_post',
      'list_policy_rules_v1_policies__policy_id__rules_get',
    ])
    expect([personas.summary, bulkAdd.summary, rules.summary]).toEqual([
      'List Personas',
      'Bulk Add Values',
      'List Policy Rules',
    ])
    expect([personas.tags, bulkAdd.tags, rules.tags]).toEqual([
      ['Agent Environment', 'personas'],
      ['demographics'],
      ['Agent Environment', 'policies'],
    ])
    for (const operation of [personas, bulkAdd, rules]) expect(bytes(operation.security)).toBe('[{"HTTPBearer":[]}]')
    expect(bytes(doc.components.securitySchemes)).toBe('{"HTTPBearer":{"type":"http","scheme":"bearer"}}')
  })

  it('writes the list-personas query parameters byte for byte', () => {
    expect(personas.parameters.map(bytes)).toEqual([
      '{"name":"team_id","in":"query","required":false,"schema":{"anyOf":[{"type":"string","format":"uuid"},{"type":"null"}],"description":"Team ID (required)","title":"Team Id"},"description":"Team ID (required)"}',
      '{"name":"intents","in":"query","required":false,"schema":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"null"}],"title":"Intents"}}',
      '{"name":"is_preset","in":"query","required":false,"schema":{"anyOf":[{"type":"boolean"},{"type":"null"}],"title":"Is Preset"}}',
      '{"name":"search","in":"query","required":false,"schema":{"anyOf":[{"type":"string"},{"type":"null"}],"title":"Search"}}',
      '{"name":"limit","in":"query","required":false,"schema":{"type":"integer","maximum":100,"minimum":1,"default":10,"title":"Limit"}}',
      '{"name":"offset","in":"query","required":false,"schema":{"type":"integer","minimum":0,"default":0,"title":"Offset"}}',
    ])
  })

  it('writes path parameters, the rules paging parameters and the request body byte for byte', () => {
    expect(bulkAdd.parameters.map(bytes)).toEqual([
      '{"name":"dimension_id","in":"path","required":true,"schema":{"type":"string","format":"uuid","title":"Dimension Id"}}',
    ])
    expect(rules.parameters.map(bytes)).toEqual([
      '{"name":"policy_id","in":"path","required":true,"schema":{"type":"string","format":"uuid","title":"Policy Id"}}',
      '{"name":"limit","in":"query","required":false,"schema":{"type":"integer","maximum":1000,"minimum":1,"default":100,"title":"Limit"}}',
      '{"name":"offset","in":"query","required":false,"schema":{"type":"integer","minimum":0,"default":0,"title":"Offset"}}',
    ])
    expect(bytes(bulkAdd.requestBody)).toBe(
      '{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/BulkAddValues"}}}}',
    )
  })

  it('writes the success and 422 responses byte for byte', () => {
    expect(bytes(personas.responses)).toBe(
      `{"200":{"description":"Successful Response","content":{"application/json":{"schema":{"$ref":"#/components/schemas/PersonaListResponse"}}}},"422":${VALIDATION_RESPONSE}}`,
    )
    expect(bytes(bulkAdd.responses)).toBe(
      '{"201":{"description":"Successful Response","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/DemographicValue"},"title":"Response Bulk Add Values V1 Demographics  Dimension Id  Values Bulk Post"}}}},' +
        `"422":${VALIDATION_RESPONSE}}`,
    )
    expect(bytes(rules.responses)).toBe(
      `{"200":{"description":"Successful Response","content":{"application/json":{"schema":{"$ref":"#/components/schemas/PolicyRuleListResponse"}}}},"422":${VALIDATION_RESPONSE}}`,
    )
  })

  it('has the HTTPValidationError and ValidationError components of FastAPI up to 0.128.0, byte for byte', () => {
    expect(bytes(componentSchemas.HTTPValidationError)).toBe(
      '{"properties":{"detail":{"items":{"$ref":"#/components/schemas/ValidationError"},"type":"array","title":"Detail"}},"type":"object","title":"HTTPValidationError"}',
    )
    expect(bytes(componentSchemas.ValidationError)).toBe(
      '{"properties":{"loc":{"items":{"anyOf":[{"type":"string"},{"type":"integer"}]},"type":"array","title":"Location"},"msg":{"type":"string","title":"Message"},"type":{"type":"string","title":"Error Type"}},"type":"object","required":["loc","msg","type"],"title":"ValidationError"}',
    )
  })

  it('lists the reachable models and enums, sorted by name', () => {
    const names = Object.keys(componentSchemas)
    expect(names).toEqual([...names].sort())
    expect(names).toEqual([
      'Assignee',
      'BulkAddValues',
      'Consequence',
      'ConsequenceAction',
      'Constraint',
      'ConstraintLogic',
      'ConstraintOperator',
      'DataAccessScope',
      'DemographicValue',
      'DemographicValueCreate',
      'ExtractedBy',
      'HTTPValidationError',
      'Intent',
      'KnowledgeLevel',
      'Persona',
      'PersonaAccessPermissions',
      'PersonaListResponse',
      'PolicyRule',
      'PolicyRuleListResponse',
      'PrivilegeLevel',
      'Provenance',
      'RuleCategory',
      'RuleStatus',
      'RuleType',
      'Severity',
      'SkillLevel',
      'SourceLocation',
      'ValidationError',
    ])
  })

  it('describes every model with exactly the fields of its zod record, in order', () => {
    const models: Json = { ...schemas, ...requests }
    expect(Object.keys(componentSchemas.Persona.properties)).toEqual(Object.keys(schemas.Persona.shape))
    for (const [name, component] of Object.entries(componentSchemas)) {
      if (name === 'HTTPValidationError' || name === 'ValidationError' || component.enum) continue
      expect(Object.keys(component.properties), name).toEqual(Object.keys(models[name].shape))
      expect(Object.keys(component), name).toEqual(
        component.required ? ['properties', 'type', 'required', 'title'] : ['properties', 'type', 'title'],
      )
    }
  })

  it('writes enums as string enum components with the zod values', () => {
    const enumModule: Json = enums
    for (const [name, component] of Object.entries(componentSchemas)) {
      if (!component.enum) continue
      expect(bytes(component)).toBe(bytes({ type: 'string', enum: enumModule[name].options, title: name }))
    }
  })

  it('describes fields as pydantic does: Optional without a null default, refs without titles, Dict[str, Any]', () => {
    const persona = componentSchemas.Persona
    expect(persona.required).toEqual(['id', 'team_id', 'name', 'role', 'created_at', 'updated_at', 'created_by'])
    expect(bytes(persona.properties.description)).toBe(
      '{"anyOf":[{"type":"string"},{"type":"null"}],"title":"Description"}',
    )
    expect(bytes(persona.properties.knowledge_level)).toBe(
      '{"$ref":"#/components/schemas/KnowledgeLevel","default":"intermediate"}',
    )
    expect(bytes(persona.properties.language)).toBe('{"type":"string","title":"Language","default":"en"}')
    expect(bytes(persona.properties.created_at)).toBe('{"type":"integer","title":"Created At"}')
    expect(bytes(persona.properties.access_permissions)).toBe(
      '{"anyOf":[{"$ref":"#/components/schemas/PersonaAccessPermissions"},{"additionalProperties":true,"type":"object"},{"type":"null"}],"title":"Access Permissions"}',
    )
    expect(bytes(componentSchemas.PersonaAccessPermissions.properties.data_access_scope)).toBe(
      '{"anyOf":[{"$ref":"#/components/schemas/DataAccessScope"},{"type":"null"}]}',
    )
    expect(bytes(componentSchemas.DemographicValueCreate)).toBe(
      '{"properties":{"value":{"type":"string","maxLength":255,"minLength":1,"title":"Value"},' +
        '"display_name":{"anyOf":[{"type":"string"},{"type":"null"}],"title":"Display Name"},' +
        '"metadata":{"additionalProperties":true,"type":"object","title":"Metadata"},' +
        '"sort_order":{"anyOf":[{"type":"integer"},{"type":"null"}],"title":"Sort Order"}},' +
        '"type":"object","required":["value"],"title":"DemographicValueCreate"}',
    )
    expect(bytes(componentSchemas.BulkAddValues.properties.values)).toBe(
      '{"items":{"$ref":"#/components/schemas/DemographicValueCreate"},"type":"array","maxItems":1000,"title":"Values"}',
    )
    expect(bytes(componentSchemas.DemographicValue.properties.value_metadata)).toBe(
      '{"additionalProperties":true,"type":"object","title":"Value Metadata"}',
    )
    expect(bytes(componentSchemas.PolicyRule.properties.reviewed_by)).toBe(
      '{"anyOf":[{"type":"string","format":"uuid"},{"type":"null"}],"title":"Reviewed By"}',
    )
    expect(componentSchemas.PolicyRule.required, 'fields with a default (None) are not required').not.toContain(
      'reviewed_by',
    )
    expect(componentSchemas.PolicyRule.required).not.toContain('review_notes')
    expect(componentSchemas.PolicyRule.required).toContain('status')
    expect(bytes(componentSchemas.Provenance.properties.model_used)).toBe('{"type":"string","title":"Model Used"}')
  })

  it('follows the profile: rules paging names and default, bulk add status', () => {
    const profile = resolveProfile({
      bulkAddStatus: 200,
      rulesPaging: { limit: 'page_size', offset: 'skip', defaultLimit: 50 },
    })
    const custom = buildOpenApiDocument(profile) as Json
    const rulesParameters = custom.paths['/v1/policies/{policy_id}/rules'].get.parameters
    expect(rulesParameters.slice(1).map(bytes)).toEqual([
      '{"name":"page_size","in":"query","required":false,"schema":{"type":"integer","maximum":1000,"minimum":1,"default":50,"title":"Page Size"}}',
      '{"name":"skip","in":"query","required":false,"schema":{"type":"integer","minimum":0,"default":0,"title":"Skip"}}',
    ])
    expect(Object.keys(custom.paths['/v1/demographics/{dimension_id}/values/bulk'].post.responses)).toEqual([
      '200',
      '422',
    ])
    expect(Object.keys(bulkAdd.responses)).toEqual(['201', '422'])
  })

  it('builds a fresh, identical document on each call', () => {
    const again = buildOpenApiDocument(DEFAULT_PROFILE)
    expect(again).not.toBe(doc)
    expect(bytes(again)).toBe(bytes(doc))
  })
})

describe('the docs page', () => {
  const options = {
    openapiUrl: '/openapi.json',
    assetsPath: '/docs/assets',
    title: 'Agent Management Console API - Swagger UI',
  }

  it("is FastAPI's get_swagger_ui_html page, with swagger-ui loaded from the assets path", () => {
    expect(docsPageHtml(options)).toBe(`
    <!DOCTYPE html>
    <html>
    <head>
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link type="text/css" rel="stylesheet" href="/docs/assets/swagger-ui.css">
    <link rel="shortcut icon" href="/docs/assets/favicon-32x32.png">
    <title>Agent Management Console API - Swagger UI</title>
    </head>
    <body>
    <div id="swagger-ui">
    </div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <!-- \`SwaggerUIBundle\` is now available on the page -->
    <script>
    const ui = SwaggerUIBundle({
        url: '/openapi.json',
    "dom_id": "#swagger-ui",
"layout": "BaseLayout",
"deepLinking": true,
"showExtensions": true,
"showCommonExtensions": true,
oauth2RedirectUrl: window.location.origin + '/docs/oauth2-redirect',
    presets: [
        SwaggerUIBundle.presets.apis,
        SwaggerUIBundle.SwaggerUIStandalonePreset
        ],
    })
    </script>
    </body>
    </html>
    `)
    expect(docsPageHtml({ ...options, oauth2RedirectUrl: null })).not.toContain('oauth2RedirectUrl')
  })

  it('escapes what could break out of the page', () => {
    const html = docsPageHtml({ openapiUrl: "/x'</script>", assetsPath: '/a"b/', title: '<b>&' })
    expect(html).toContain("url: '/x\\'\\u003c/script\\u003e'")
    expect(html).toContain('href="/a&quot;b/swagger-ui.css"')
    expect(html).toContain('<title>&lt;b&gt;&amp;</title>')
  })

  it('finds the swagger-ui-dist folder', () => {
    expect(existsSync(join(swaggerUiAssetsDir(), 'swagger-ui-bundle.js'))).toBe(true)
  })

  it('serves the page and its assets locally, with no CDN URL', async () => {
    const app = express()
    app.get('/docs', (_request, response) => {
      response.type('html').send(docsPageHtml(options))
    })
    app.use('/docs/assets', express.static(swaggerUiAssetsDir()))
    const server = app.listen(0, '127.0.0.1')
    await new Promise<void>((resolve) => server.once('listening', resolve))
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const page = await fetch(`${base}/docs`)
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).not.toMatch(/https?:\/\/|cdn|jsdelivr|unpkg/i)
      for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']) {
        expect(html).toContain(`/docs/assets/${asset}`)
        const response = await fetch(`${base}/docs/assets/${asset}`)
        expect(response.status, asset).toBe(200)
        await response.arrayBuffer()
      }
      const bundle = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`)
      expect(bundle.headers.get('content-type')).toMatch(/javascript/)
      expect(await bundle.text()).toContain('SwaggerUIBundle')
    } finally {
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    }
  })
})
