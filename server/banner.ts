import type { Fixtures } from '../factories/fixtures.js'

/**
 * What the server prints when it is ready: where it is, which world it serves, and tokens
 * to paste. It never prints a secret: tokens are signed with the documented development
 * secret unless another one was given through the environment.
 */
export function banner(options: {
  version: string
  url: string
  fixtures: Fixtures
  personasPerTeam: number
  /** The world served was imported from a server (a state file `agent-console-mock import` wrote). */
  imported?: boolean
  customSecret: boolean
  control: boolean
  stateFile?: string
  /** The address it is bound to, when that is beyond loopback. */
  exposedOn?: string
  controlToken?: string
  /** The loaded state file holds another seed or size than the configured ones (startServer's `stateFileConflict`). */
  stateFileConflict?: string
}): string {
  const { url, fixtures } = options
  const teamName = new Map(fixtures.teams.map((team) => [team.id, team.name]))
  const lines = [
    `agent-console-mock ${options.version} listening on ${url}`,
    `  docs        ${url}/docs   (OpenAPI: ${url}/openapi.json, ${options.control ? `control API: ${url}/__mock/` : 'control API switched off'})`,
    `  seed        ${fixtures.seed}, ${options.imported ? 'a world imported from a server' : `${options.personasPerTeam} personas per team`}${options.stateFile ? `, state kept in ${options.stateFile}` : ''}`,
    ...(options.stateFileConflict ? [`  NOTE: ${options.stateFileConflict}`] : []),
    '  teams',
    ...fixtures.teams.map((team) => `    ${team.id}  ${team.name}`),
    '  policies',
    ...fixtures.policies.map(
      (policy) => `    ${policy.id}  ${policy.name} (${teamName.get(policy.team_id) ?? policy.team_id})`,
    ),
    '  dimensions',
    ...fixtures.dimensions.map((dimension) => `    ${dimension.id}  ${dimension.name}`),
    `  tokens      signed with ${options.customSecret ? 'the secret from AGENT_CONSOLE_MOCK_JWT_SECRET' : 'the development secret (docs/testing-kits.md#the-seeded-world-and-its-tokens)'}${options.control ? '; more from POST /__mock/tokens' : ''}`,
    ...Object.entries(fixtures.tokens).map(([role, token]) => `    ${role.padEnd(15)} ${token}`),
    '',
    `  try: curl -H "Authorization: Bearer $TOKEN" ${url}/v1/personas/   (TOKEN=team_reader above)`,
    ...exposureLines(options),
  ]
  return lines.join('\n')
}

/** A warning for a server anyone on the network can reach, with the token its control API demands. */
function exposureLines({
  exposedOn,
  controlToken,
  control,
}: {
  exposedOn?: string
  controlToken?: string
  control: boolean
}) {
  if (!exposedOn) return []
  return [
    '',
    `  WARNING: bound to ${exposedOn}, beyond loopback: anyone on the network can call the API.`,
    ...(control && controlToken ? [`  the control API demands the header  X-Mock-Control-Token: ${controlToken}`] : []),
  ]
}
