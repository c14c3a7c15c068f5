import type { z } from 'zod'
import type { SchemaPair } from './responses.js'

/** Problems of one body: failures break the contract; warnings are differences worth knowing. */
export interface ShapeProblems {
  failures: string[]
  warnings: string[]
}

type Issue = z.core.$ZodIssue

/** Only the exact pass sees a field the contract leaves optional go missing. */
const OPTIONAL_ABSENT =
  'which the description leaves optional (the mock always writes every field, null where it has no value: a frontend built against it may expect the key)'
type Path = ReadonlyArray<PropertyKey>

/** Distinct problems listed per body; a record list repeats the same problem on every record. */
const MAX_PROBLEMS = 10
/** The `(got …)` sample a line ends with: lines that differ only there are the same problem. */
const SAMPLE_SUFFIX = / \(got .*\)$/

/**
 * Validates a body against the contract and the mock's exact schema (see `SchemaPair`).
 * Problems on list items are merged (`results[].created_at`) with a count.
 * @example validateShape(PERSONA_LIST, answer.json).failures // ['results[].role: missing field (60 times)']
 */
export function validateShape(pair: SchemaPair, body: unknown): ShapeProblems {
  const contractIssues = issuesOf(pair.contract, body)
  const failedPaths = new Set(contractIssues.map((issue) => normalisedPath(issue.path)))
  const extraIssues = issuesOf(pair.exact, body).filter(
    (issue) => !failedPaths.has(normalisedPath(issue.path)) || issue.code === 'unrecognized_keys',
  )
  return {
    failures: summarise(contractIssues.flatMap((issue) => describeIssue(issue, body))),
    warnings: summarise(extraIssues.flatMap((issue) => describeIssue(issue, body, 'outside what the mock knows: '))),
  }
}

function issuesOf(schema: z.ZodType, body: unknown): Issue[] {
  const result = schema.safeParse(body)
  return result.success ? [] : result.error.issues
}

/** One line per problem; an unknown key is one problem per key. */
function describeIssue(issue: Issue, body: unknown, prefix = ''): string[] {
  const where = normalisedPath(issue.path)
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((key) => `${join(where, key)}: unknown field, not in the contract`)
  if (isMissing(body, issue.path))
    return [prefix ? `${where}: missing field, ${OPTIONAL_ABSENT}` : `${where || '(body)'}: missing field`]
  return [`${where || '(body)'}: ${prefix}${issue.message} (got ${sample(valueAt(body, issue.path))})`]
}

/** `results[].created_at`: list indexes dropped, so the same problem on many records is one line. */
function normalisedPath(path: Path): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[]` : join(text, String(key))), '')
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

function valueAt(body: unknown, path: Path): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined,
    body,
  )
}

function isMissing(body: unknown, path: Path): boolean {
  if (path.length === 0) return body === undefined
  const parent = valueAt(body, path.slice(0, -1))
  return (
    parent !== null &&
    typeof parent === 'object' &&
    !Array.isArray(parent) &&
    !(String(path[path.length - 1]) in parent)
  )
}

function sample(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}

/** Merges repeated lines into one with a count (the sample of the first kept), and keeps the first few. */
function summarise(lines: string[]): string[] {
  const groups = new Map<string, { first: string; count: number }>()
  for (const line of lines) {
    const key = line.replace(SAMPLE_SUFFIX, '')
    const group = groups.get(key)
    if (group) group.count += 1
    else groups.set(key, { first: line, count: 1 })
  }
  const merged = [...groups.values()].map(({ first, count }) => (count > 1 ? `${first} (${count} times)` : first))
  return merged.length > MAX_PROBLEMS
    ? [...merged.slice(0, MAX_PROBLEMS), `… and ${merged.length - MAX_PROBLEMS} more`]
    : merged
}
