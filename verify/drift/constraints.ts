import { DOCUMENT_ONLY, failure, LEFT_OPEN, LENIENT, NARROWER, note, TOPICS, warning } from './findings.js'
import type { Documents, SchemaFinding, Side } from './findings.js'
import type { Node } from './normalise.js'
import { type BoundKeyword, PROFILE_BOUNDS } from './described-bounds.js'

/** Nullability, bounds and vocabularies of one schema, the mock's against the server's. */

type Schema = Record<string, unknown>

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems']
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems']
/** The inclusive keyword of each exclusive one: both bound the same edge. */
const INCLUSIVE: Record<string, string> = { exclusiveMinimum: 'minimum', exclusiveMaximum: 'maximum' }
/** Components whose vocabulary or required fields the description leaves open ("not shown"). */
export const OPEN = [
  'Assignee',
  'ConsequenceAction',
  'Severity',
  'ConstraintLogic',
  'ConstraintOperator',
  'DemographicValueCreate',
]

/**
 * Components whose fields the description leaves required or optional ("not shown"): one of them declared
 * `Optional[X]` on the server (nullable) is a warning, not a failure.
 */
export const OPTIONAL_OPEN = ['PolicyRule']

/** `fieldOpen`: the field is one of a component of OPTIONAL_OPEN. */
export function compareNullability(
  out: SchemaFinding[],
  where: string,
  side: Side,
  docs: Documents,
  a: Node,
  b: Node,
  fieldOpen = false,
) {
  if (a.nullable === b.nullable) return
  if (side === 'parameter') return void out.push(note(where, TOPICS.parameterNull))
  if (b.nullable) {
    const message = `${where}: nullable on the server only`
    if (side !== 'response') return void out.push(note(`${LENIENT}: ${message}`))
    if (fieldOpen)
      return void out.push(
        warning(
          `${LEFT_OPEN}: ${message} (whether each rule field is required or optional is not shown; a frontend built against the mock does not expect null there)`,
        ),
      )
    return void out.push(failure(message))
  }
  if (!docs.serverMarksEveryNull) return void out.push(note(where, TOPICS.unmarkedNull))
  // The mock takes null in a request where the server does not: the description never types the field
  // nullable, so a client sending null relies on the mock's own leniency. In an answer, the mock sends null
  // where the server never does: a client of the mock takes both.
  if (side === 'body')
    out.push(
      warning(
        `${where}: nullable in the mock only (the description does not type it nullable: the mock's own leniency; a frontend that sends null is refused by the server)`,
      ),
    )
}

/**
 * A tighter bound or another format refuses what the mock takes; an answer's bounds and a default refuse nothing.
 * A tighter bound fails only where it refuses a value the description itself says is taken (described-bounds.ts):
 * elsewhere the description leaves the bound to the server, and the mock's leniency is its own.
 */
export function compareBounds(
  out: SchemaFinding[],
  where: string,
  side: Side,
  docs: Documents,
  a: Schema,
  b: Schema,
): void {
  for (const bound of [...LOWER, ...UPPER, 'format', 'default']) {
    const [ours, theirs] = [a[bound], b[bound]]
    if (JSON.stringify(ours) === JSON.stringify(theirs)) continue
    const message = `${where}: ${bound} ${JSON.stringify(ours) ?? 'none'} in the mock, ${JSON.stringify(theirs) ?? 'none'} on the server`
    if (side === 'response' || bound === 'default') out.push(note(`${DOCUMENT_ONLY}: ${message}`))
    else if (bound === 'format') out.push(theirs === undefined ? note(`${LENIENT}: ${message}`) : failure(message))
    else if (stricter(bound, a, theirs)) out.push(tighterBound(message, where, bound, theirs as number, docs))
    else out.push(note(`${LENIENT}: ${message}`))
  }
}

/** A server bound that refuses what the mock takes: a failure inside a described bound, else the server's choice. */
function tighterBound(message: string, where: string, bound: string, theirs: number, docs: Documents): SchemaFinding {
  const described = docs.described.find((item) => item.at === where && sameEdge(item.bound, bound))
  if (described && !keepsDescribed(bound, theirs, described.value)) return failure(message)
  const setting = PROFILE_BOUNDS.find((item) => item.at === where && item.bound === bound)?.setting
  if (setting)
    return warning(
      `${message}: a profile finding: ${setting}: ${JSON.stringify(theirs)} in the profile aligns the mock (the description leaves it open)`,
    )
  const edge = LOWER.includes(bound) ? 'minimum' : 'maximum'
  return warning(
    `${message}: ${LEFT_OPEN} (the description sets no ${edge} this tight: the mock takes ${refused(bound, theirs)}, and no profile setting changes it)`,
  )
}

/** What the server's bound refuses, in words. */
function refused(bound: string, theirs: number): string {
  const words: Record<string, string> = {
    minimum: `values below ${theirs}`,
    exclusiveMinimum: `values of ${theirs} or less`,
    minLength: theirs === 1 ? 'an empty string' : `strings of fewer than ${theirs} characters`,
    minItems: theirs === 1 ? 'an empty list' : `lists of fewer than ${theirs} items`,
    maximum: `values above ${theirs}`,
    exclusiveMaximum: `values of ${theirs} or more`,
    maxLength: `strings of more than ${theirs} characters`,
    maxItems: `lists of more than ${theirs} items`,
  }
  return words[bound] ?? `what ${bound} ${theirs} refuses`
}

/** `exclusiveMinimum` and `exclusiveMaximum` bound the same edge as `minimum` and `maximum`. */
const sameEdge = (described: BoundKeyword, bound: string) => bound === described || INCLUSIVE[bound] === described

/** Whether the server's `bound` still takes the described edge `value` (and so every value the description allows). */
function keepsDescribed(bound: string, theirs: number, value: number): boolean {
  const exclusive = bound.startsWith('exclusive')
  if (LOWER.includes(bound)) return exclusive ? theirs < value : theirs <= value
  return exclusive ? theirs > value : theirs >= value
}

/** Whether the server's bound refuses a value the mock's takes. */
function stricter(bound: string, mock: Schema, theirs: unknown): boolean {
  if (typeof theirs !== 'number') return false
  const ours = mock[bound]
  if (typeof ours === 'number') return LOWER.includes(bound) ? theirs > ours : theirs < ours
  // FastAPI writes `gt=0` as `exclusiveMinimum: 0`: against the mock's `minimum: 1` it refuses nothing the mock takes.
  const edge = mock[INCLUSIVE[bound] ?? '']
  if (typeof edge !== 'number') return true
  return LOWER.includes(bound) ? theirs >= edge : theirs <= edge
}

/** A value the mock takes and the server does not, or one the server may send and the mock never does. */
export function compareEnums(out: SchemaFinding[], where: string, side: Side, a: Node, b: Node): void {
  const [ours, theirs] = [a.schema['enum'], b.schema['enum']] as Array<unknown[] | undefined>
  if (!ours || !theirs) return
  const open = OPEN.includes(a.ref ?? '')
  const report = (breaks: boolean, message: string) => {
    if (breaks && !open) return void out.push(failure(message))
    out.push(note(`${breaks ? LEFT_OPEN : side === 'response' ? NARROWER : LENIENT}: ${message}`))
  }
  const missing = ours.filter((value) => !theirs.includes(value))
  const extra = theirs.filter((value) => !ours.includes(value))
  if (missing.length) report(side !== 'response', `${where}: the server does not declare ${JSON.stringify(missing)}`)
  if (extra.length) report(side === 'response', `${where}: the server also declares ${JSON.stringify(extra)}`)
}
