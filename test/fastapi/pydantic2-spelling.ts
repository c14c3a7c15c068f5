import { OPENAPI, rewrite, type Json } from '../contract/support/variant.js'

/**
 * The mock's /openapi.json as another pydantic 2 FastAPI app writes the same contract: its list models as
 * generics (`Page[Persona]` is named `Page_Persona_`), its optional query parameters typed `X = Query(None)`
 * (no null), a description on each, and FastAPI ≥0.128.1's ValidationError (with `input` and `ctx`). None of
 * it changes what a client sends or receives.
 */
const GENERIC_NAMES: Record<string, string> = {
  PersonaListResponse: 'Page_Persona_',
  PolicyRuleListResponse: 'Page_PolicyRule_',
}

export function respelled(document: Json): Json {
  let text = JSON.stringify(document)
  for (const [name, generic] of Object.entries(GENERIC_NAMES))
    text = text.replaceAll(`"#/components/schemas/${name}"`, `"#/components/schemas/${generic}"`)
  const changed = JSON.parse(text)
  const schemas = changed.components.schemas
  for (const [name, generic] of Object.entries(GENERIC_NAMES)) {
    schemas[generic] = { ...schemas[name], title: generic.replace('_', '[').replace(/_$/, ']') }
    delete schemas[name]
  }
  for (const parameter of changed.paths['/v1/personas/'].get.parameters) {
    const { anyOf, ...rest } = parameter.schema
    if (anyOf) parameter.schema = { ...anyOf.find((member: Json) => member.type !== 'null'), ...rest }
    parameter.description = `The ${parameter.name} of the personas listed`
  }
  Object.assign(schemas.ValidationError.properties, {
    input: { title: 'Input' },
    ctx: { type: 'object', title: 'Context' },
  })
  return changed
}

/** msw handlers that serve the mock's document respelled. */
export const respelledDocument = () => [rewrite('get', OPENAPI, respelled)]
