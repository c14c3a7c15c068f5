import { API_ROUTES } from '../../model/api/routes.js'
import { resolveProfile, type ProfileOptions } from '../../model/profile.js'
import { openApiDocumentJson } from '../../fastapi/openapi/document.js'
import type { Interaction, RecordedContract } from './format.js'
import { pactBody, type Schema } from './pact-matchers.js'
import { resolveInJson, resolveReferences } from './references.js'
import { ANONYMOUS, INVALID, INVALID_TOKEN } from './roles.js'

/** Where a Pact file's concrete values come from: the ids and tokens of the world it is verified against. */
export interface PactValues {
  /** The id a reference stands for (`team 0`); undefined leaves the reference in place. */
  reference(name: string): string | undefined
  /** The token of a role; undefined: the interaction cannot be written and is left out. */
  token(role: string): string | undefined
}

/** A Pact v4 file (JSON) as `pactOf` writes it. */
export type PactFile = ReturnType<typeof pactOf>

const JSON_TYPE = 'application/json'

/** What the Pact writer reads of /openapi.json: each operation's response models. */
interface OpenApiDocument {
  paths?: Record<
    string,
    Record<
      string,
      { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }
    >
  >
  components?: { schemas?: Record<string, Schema> }
}

/**
 * A recorded contract as a Pact v4 file, for teams with a Pact broker: one synchronous HTTP interaction
 * per recorded one, with matching rules from the response models (pact-matchers.ts) rather than fixed
 * examples. Interactions whose role has no token are left out and listed in `metadata`. The operations of a
 * served document (`served`: the team's own `/openapi.json`) take their response models from it.
 */
export function pactOf(contract: RecordedContract, values: PactValues, served?: object, names = DEFAULT_NAMES) {
  const own = openApiDocumentJson(resolveProfile(contract.profile as ProfileOptions)) as OpenApiDocument
  const documents = { own, served: served as OpenApiDocument | undefined }
  const written = contract.interactions.map((interaction) => pactInteraction(interaction, values, documents))
  return {
    consumer: { name: names.consumer },
    provider: { name: names.provider },
    interactions: written.filter((item) => item !== undefined),
    metadata: {
      pactSpecification: { version: '4.0' },
      'agent-console-mock': {
        skipped: contract.interactions.filter((_, i) => written[i] === undefined).map(interactionTitle),
      },
    },
  }
}

const DEFAULT_NAMES = { consumer: 'agent-console-app', provider: 'agent-console-api' }

const interactionTitle = (interaction: Interaction): string =>
  `${interaction.test ? `${interaction.test}: ` : ''}#${interaction.n} ${interaction.method} ${interaction.path}` +
  `${interaction.query ? `?${interaction.query}` : ''} as ${interaction.role}`

/** The mock's own `/openapi.json`, and the served document if any. */
interface Documents {
  own: OpenApiDocument
  served: OpenApiDocument | undefined
}

function pactInteraction(interaction: Interaction, values: PactValues, documents: Documents) {
  const token = interaction.role === INVALID ? INVALID_TOKEN : values.token(interaction.role)
  if (token === undefined && interaction.role !== ANONYMOUS) return undefined
  const resolve = (text: string) => resolveReferences(text, (name) => values.reference(name))
  const headers: Record<string, string[]> = token === undefined ? {} : { Authorization: [`Bearer ${token}`] }
  const query = new URLSearchParams(resolve(interaction.query))
  const request: Record<string, unknown> = {
    method: interaction.method,
    path: resolve(interaction.path),
    ...(query.size > 0 ? { query: groupedQuery(query) } : {}),
    headers,
  }
  if (interaction.body !== undefined || interaction.rawBody !== undefined) {
    headers['Content-Type'] = [JSON_TYPE]
    const content =
      interaction.body !== undefined ? resolveInJson(interaction.body, (name) => values.reference(name)) : undefined
    request.body = content === undefined ? rawBody(resolve(interaction.rawBody!)) : jsonBody(content)
  }
  return {
    type: 'Synchronous/HTTP',
    description: interactionTitle(interaction),
    pending: false,
    request,
    response: pactResponse(interaction, values, documents),
  }
}

function pactResponse(interaction: Interaction, values: PactValues, documents: Documents) {
  const { status, total, example, body } = interaction.response
  const content =
    total !== undefined
      ? { results: example === undefined ? [] : [example], total }
      : example !== undefined
        ? [example]
        : body
  if (content === undefined) return { status }
  const resolved = resolveInJson(content, (name) => values.reference(name))
  const { schema, document } = responseSchema(interaction, status, documents)
  const written = pactBody(resolved, schema, document?.components?.schemas ?? {})
  return {
    status,
    headers: { 'Content-Type': [JSON_TYPE] },
    body: jsonBody(written.content),
    matchingRules: { body: written.rules },
  }
}

/**
 * The operation's response model for this status (undefined for an undeclared status), and the document it is
 * in: the mock's /openapi.json for its own operations, else the served document's operation of that name.
 */
function responseSchema(interaction: Interaction, status: number, { own, served }: Documents) {
  const route = API_ROUTES.find((item) => item.name === interaction.operation)
  const [document, operation] = route
    ? [own, own.paths?.[route.path]?.[route.method.toLowerCase()]]
    : [served, served && servedOperation(served, interaction.operation)]
  return { document, schema: operation?.responses?.[String(status)]?.content?.[JSON_TYPE]?.schema }
}

/** The served document's operation a recorded name stands for: its `operationId`, or `METHOD path`. */
function servedOperation(document: OpenApiDocument, name: string) {
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const [method, operation] of Object.entries(item ?? {}))
      if (operation?.operationId === name || `${method.toUpperCase()} ${path}` === name) return operation
  return undefined
}

const jsonBody = (content: unknown) => ({ content, contentType: JSON_TYPE, encoded: false })
// Not JSON (a test of the server's decode error): sent as the text it was, with the JSON Content-Type header.
const rawBody = (text: string) => ({ content: text, contentType: 'text/plain', encoded: false })

function groupedQuery(query: URLSearchParams): Record<string, string[]> {
  const grouped: Record<string, string[]> = {}
  for (const [name, value] of query) (grouped[name] ??= []).push(value)
  return grouped
}
