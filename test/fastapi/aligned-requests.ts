/**
 * Requests whose answers do not depend on either server's data (only on ids and tokens each server has
 * its own of): refusals, validation errors, unknown ids, routing. aligned-mock.test.ts sends each to the
 * reference FastAPI app and to the mock, and compares the answers byte for byte.
 */

/** What a request may name on each server: its own ids and tokens. */
export interface ServerSide {
  ids: { team: string; otherTeam: string; policy: string; otherTeamPolicy: string; dimension: string }
  tokens: Record<TokenName, string>
}

type TokenName = 'reader' | 'personaOnly' | 'admin' | 'noPermission' | 'expired' | 'badSignature'

export interface AlignedRequest {
  name: string
  method?: string
  path: (ids: ServerSide['ids']) => string
  /** A token of the server, a raw `Authorization` header, or none. */
  auth?: TokenName | { header: string }
  body?: string
  /** @default application/json when there is a body */
  contentType?: string
}

const UNKNOWN = '5f0c2b8e-1d4a-4c6b-9e3f-7a8b9c0d1e2f'
const PERSONAS = '/v1/personas/'
const rules = (policy: string, query = '') => `/v1/policies/${policy}/rules${query}`
const bulk = (dimension: string) => `/v1/demographics/${dimension}/values/bulk`
const json = (value: unknown) => JSON.stringify(value)
const many = (count: number) => json({ values: Array.from({ length: count }, (_, index) => ({ value: `v${index}` })) })

const personas = (name: string, query: string, auth: AlignedRequest['auth'] | null = 'reader'): AlignedRequest => ({
  name,
  path: () => `${PERSONAS}${query}`,
  auth: auth ?? undefined,
})
const adminBulk = (
  name: string,
  body: string | undefined,
  dimension?: string,
  contentType?: string,
): AlignedRequest => ({
  name,
  method: 'POST',
  path: (ids) => bulk(dimension ?? ids.dimension),
  auth: 'admin',
  body,
  contentType,
})

export const ALIGNED_REQUESTS: readonly AlignedRequest[] = [
  personas('limit below its minimum', '?limit=0'),
  personas('limit above its maximum', '?limit=101'),
  personas('limit not an integer', '?limit=abc'),
  personas('limit a decimal', '?limit=1.5'),
  personas('offset below its minimum', '?offset=-1'),
  personas('four errors, in signature order', '?is_preset=maybe&team_id=x&offset=-1&limit=0'),
  personas('malformed team_id', '?team_id=not-a-uuid'),
  personas('team_id with a bad character', `?team_id=${UNKNOWN.slice(0, -1)}g`),
  personas('team_id in braces, upper case, of another team', `?team_id=%7B${UNKNOWN.toUpperCase()}%7D`),
  personas('empty is_preset', '?is_preset='),
  personas('unknown intent next to a bad limit', '?intents=benign&intents=sneaky&limit=0'),
  personas('lax int " 5" beside a bad offset', '?limit=%205&offset=-1'),
  personas('lax int "1_0" beside a bad offset', '?limit=1_0&offset=-1'),
  personas('lax int in Arabic-Indic digits beside a bad offset', '?limit=%D9%A3&offset=-1'),
  personas('the last of repeated values wins', '?limit=abc&limit=7&offset=-2'),
  personas('lax bool YES beside a bad offset', '?is_preset=YES&offset=-1'),
  personas('lax bool Off beside a bad offset', '?is_preset=Off&offset=-1'),
  { name: 'another team', path: (ids) => `${PERSONAS}?team_id=${ids.otherTeam}`, auth: 'reader' },
  personas('no credentials', '', null),
  personas('no credentials and a bad limit', '?limit=0', null),
  personas('Basic credentials', '', { header: 'Basic YWxpY2U6c2VjcmV0' }),
  personas('an empty Bearer', '', { header: 'Bearer ' }),
  personas('a token that is not a JWT', '', { header: 'Bearer not-a-jwt' }),
  personas('an expired token', '', 'expired'),
  personas('a token signed with another secret', '', 'badSignature'),
  personas('no persona:read', '', 'noPermission'),
  personas('a super admin names no team', '', 'admin'),
  { name: 'rules: malformed policy_id', path: () => rules('not-a-uuid'), auth: 'reader' },
  { name: 'rules: bad paging', path: () => rules(UNKNOWN, '?limit=0&offset=-1&page_size=0&skip=-1'), auth: 'reader' },
  { name: 'rules: limit above 1000', path: () => rules(UNKNOWN, '?limit=1001&page_size=1001'), auth: 'reader' },
  { name: 'rules: unknown policy', path: () => rules(UNKNOWN), auth: 'reader' },
  { name: "rules: another team's policy", path: (ids) => rules(ids.otherTeamPolicy), auth: 'reader' },
  { name: 'rules: no policy:read', path: (ids) => rules(ids.policy), auth: 'personaOnly' },
  {
    name: 'bulk: invalid JSON, no credentials',
    method: 'POST',
    path: (ids) => bulk(ids.dimension),
    body: '{"values": [1,',
  },
  adminBulk('bulk: invalid JSON over lines', '\n  {"values":\n  [{"value": x}]}'),
  adminBulk('bulk: a trailing comma', '{"values": [],}'),
  adminBulk('bulk: no body', undefined),
  adminBulk('bulk: a JSON null body', 'null'),
  adminBulk('bulk: values not a list', json({ values: 'abc' })),
  adminBulk('bulk: values null', json({ values: null })),
  adminBulk('bulk: a body that is a list', '[1]'),
  adminBulk('bulk: a text/plain body', 'values', undefined, 'text/plain'),
  adminBulk(
    'bulk: items of the wrong shape',
    json({
      values: [{ value: '' }, { value: 5, metadata: null, sort_order: 'x' }, 3, null, { value: 'x', metadata: [1] }],
    }),
  ),
  adminBulk(
    'bulk: a value too long',
    json({ values: [{ value: 'x'.repeat(256) }, { value: 'ok', sort_order: '1e3' }] }),
  ),
  adminBulk('bulk: too many items (an unknown dimension where there is no maximum)', many(1001), UNKNOWN),
  adminBulk('bulk: bad path and bad body', json({ values: 'abc' }), 'not-a-uuid'),
  adminBulk(
    'bulk: coerced values, unknown dimension',
    json({ values: [{ value: 5, display_name: true, sort_order: 1.9, metadata: [['a', 1]] }, { value: 1e16 }] }),
    UNKNOWN,
  ),
  adminBulk('bulk: empty list, unknown dimension', json({ values: [] }), UNKNOWN),
  adminBulk('bulk: empty list', json({ values: [] })),
  adminBulk(
    'bulk: a value repeated in the request',
    json({ values: [{ value: 'zz-aligned' }, { value: 'zz-aligned' }] }),
    UNKNOWN,
  ),
  {
    name: 'bulk: not a super admin',
    method: 'POST',
    path: (ids) => bulk(ids.dimension),
    auth: 'reader',
    body: json({ values: [] }),
  },
  { name: 'unknown path', path: () => '/v1/nope', auth: 'reader' },
  { name: 'DELETE on the personas route', method: 'DELETE', path: () => PERSONAS, auth: 'reader' },
  { name: 'HEAD on the personas route', method: 'HEAD', path: () => PERSONAS, auth: 'reader' },
  { name: 'GET on the bulk route', path: (ids) => bulk(ids.dimension), auth: 'admin' },
  { name: 'personas without the trailing slash', path: () => '/v1/personas?limit=5&intents=a%20b' },
  { name: 'bulk with a trailing slash', method: 'POST', path: () => `${bulk(UNKNOWN)}/`, body: json({ values: [] }) },
]
