import { DOCUMENT_ONLY, failure, LEFT_OPEN, LENIENT, NARROWER, note, TOPICS, warning } from './findings.js'
import type { Documents, SchemaFinding, Side } from './findings.js'
import type { Node } from './normalise.js'

/** Nullability, bounds and vocabularies of one schema, the mock's against the server's. */

type Schema = Record<string, unknown>

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems']
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems']
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

/** Bounds of the bulk add body the profile expresses (the description leaves them open): `where` suffix and bound. */
const PROFILE_BOUNDS: ReadonlyArray<{ at: string; bound: string; setting: string }> = [
  { at: ' body.values', bound: 'maxItems', setting: 'bounds.bulkMaxItems' },
  { at: ' body.values[].value', bound: 'maxLength', setting: 'bounds.valueMaxLength' },
]

/** A tighter bound or another format refuses what the mock takes; an answer's bounds and a default refuse nothing. */
export function compareBounds(out: SchemaFinding[], where: string, side: Side, a: Schema, b: Schema): void {
  for (const bound of [...LOWER, ...UPPER, 'format', 'default']) {
    const [ours, theirs] = [a[bound], b[bound]]
    if (JSON.stringify(ours) === JSON.stringify(theirs)) continue
    const message = `${where}: ${bound} ${JSON.stringify(ours) ?? 'none'} in the mock, ${JSON.stringify(theirs) ?? 'none'} on the server`
    if (side === 'response' || bound === 'default') out.push(note(`${DOCUMENT_ONLY}: ${message}`))
    else if (bound === 'format' ? theirs !== undefined : stricter(bound, ours, theirs)) {
      const setting = PROFILE_BOUNDS.find((item) => item.bound === bound && where.endsWith(item.at))?.setting
      if (bound === 'minItems' && side === 'body' && where.endsWith(' body.values'))
        out.push(
          warning(
            `${message}: ${LEFT_OPEN} (the description sets no minimum number of values; the mock takes [], and no profile setting changes it)`,
          ),
        )
      else if (setting && side === 'body')
        out.push(
          warning(
            `${message}: a profile finding: ${setting}: ${JSON.stringify(theirs)} in the profile aligns the mock (the description leaves it open)`,
          ),
        )
      else out.push(failure(message))
    } else out.push(note(`${LENIENT}: ${message}`))
  }
}

/** Whether the server's bound refuses a value the mock's takes. */
function stricter(bound: string, ours: unknown, theirs: unknown): boolean {
  if (typeof theirs !== 'number') return false
  if (typeof ours !== 'number') return true
  return LOWER.includes(bound) ? theirs > ours : theirs < ours
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
