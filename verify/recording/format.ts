import { z } from 'zod'

/**
 * A recorded contract: the requests an app made during a run and what the mock answered, normalised so
 * that it can be replayed against another server (`verify --replay`) and is the same file for the same run.
 * Ids of the world's records are references (`{{team 0}}`), tokens are roles.
 */
export const CONTRACT_FORMAT = 'agent-console-mock/contract'
export const CONTRACT_VERSION = 1

/** What the mock answered, as much of it as a replay and a Pact file need (a list keeps one example record). */
export const RecordedAnswer = z.object({
  status: z.int(),
  /** Lists: the `total` the answer gave. */
  total: z.int().optional(),
  /** Lists and bulk adds: how many records the answer held. */
  count: z.int().optional(),
  /** Lists and bulk adds: the first record, normalised (timestamps written as 0). */
  example: z.unknown().optional(),
  /** Any other JSON answer (errors), normalised. */
  body: z.unknown().optional(),
})
export type RecordedAnswer = z.infer<typeof RecordedAnswer>

export const Interaction = z.object({
  /** The test that made the request ('' outside a test runner). */
  test: z.string(),
  /** Its position among the interactions its test recorded, from 1: what `interaction n` references name. */
  n: z.int().min(1),
  /** The endpoint's name (`list_personas`), or a served document's operation's (docs/openapi.md). */
  operation: z.string().min(1),
  method: z.string(),
  /** The path as sent, with references in place of ids: `/v1/policies/{{policy 0 of team 0}}/rules`. */
  path: z.string(),
  /** The raw query string as sent (no `?`), with references in place of ids. */
  query: z.string(),
  /** The JSON body, normalised; absent when there was none or it was not JSON. */
  body: z.unknown().optional(),
  /** A body that was not JSON, as text (a test of the server's JSON decode error). */
  rawBody: z.string().optional(),
  /** Who asked: a fixture role (`team_reader`), one derived from the claims, `anonymous` or `invalid`. */
  role: z.string(),
  response: RecordedAnswer,
  /** The profile in force when it was not the contract's (a test that set its own). */
  profile: z.record(z.string(), z.unknown()).optional(),
})
export type Interaction = z.infer<typeof Interaction>

export const RecordedContract = z.object({
  format: z.literal(CONTRACT_FORMAT),
  version: z.literal(CONTRACT_VERSION),
  /** The profile settings in force (as `--profile` takes them). */
  profile: z.record(z.string(), z.unknown()),
  /** Each reference used, and what it stands for (to map onto the ids of a real server). */
  references: z.record(z.string(), z.string()),
  interactions: z.array(Interaction),
})
export type RecordedContract = z.infer<typeof RecordedContract>

/** A contract file that cannot be read: not JSON, or not a contract. */
export class ContractFileError extends Error {
  override name = 'ContractFileError'
}

/** Reads a contract file's text. @throws ContractFileError saying what is wrong */
export function parseContract(text: string): RecordedContract {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ContractFileError(`not JSON: ${(error as Error).message}`)
  }
  const result = RecordedContract.safeParse(json)
  if (result.success) return result.data
  const problems = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`)
  throw new ContractFileError(
    `not a recorded contract (${CONTRACT_FORMAT} v${CONTRACT_VERSION}): ${problems.join('; ')}`,
  )
}

/**
 * One contract of several (tests of a run, workers): interactions ordered by test, then as each test made
 * them, so that the file does not depend on which worker ran first. The profile is the first one's; an
 * interaction recorded under another keeps its own.
 */
export function mergeContracts(parts: readonly RecordedContract[]): RecordedContract {
  const profile = parts[0]?.profile ?? {}
  const same = (other: Record<string, unknown>) => JSON.stringify(other) === JSON.stringify(profile)
  const interactions = parts
    .flatMap((part) =>
      same(part.profile) ? part.interactions : part.interactions.map((item) => ({ ...item, profile: part.profile })),
    )
    .sort((a, b) => (a.test === b.test ? a.n - b.n : a.test < b.test ? -1 : 1))
  const references = Object.fromEntries(
    parts.flatMap((part) => Object.entries(part.references)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  )
  return contractOf(profile, references, interactions)
}

export function contractOf(
  profile: Record<string, unknown>,
  references: Record<string, string>,
  interactions: Interaction[],
): RecordedContract {
  return { format: CONTRACT_FORMAT, version: CONTRACT_VERSION, profile, references, interactions }
}

/** The contract as its file holds it: two-space JSON, a newline at the end. */
export const contractText = (contract: RecordedContract): string => `${JSON.stringify(contract, null, 2)}\n`
