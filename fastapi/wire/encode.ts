import type { z } from 'zod'
import type { Profile } from '../../model/profile.js'
import type { EncodedJson } from '../http/responses.js'
import { compileRecordEncoder, type Encoder } from './compile.js'
import { ListJson, type JsonBudget } from './kept-json.js'

type Schema = z.core.$ZodType

/** The encoder compiled per schema and profile; keyed weakly, so a profile no longer used takes its encoders along. */
const encoderCache = new WeakMap<Schema, WeakMap<Profile, Encoder>>()
/** The JSON kept per list and encoder; keyed weakly by the list, which a changed world replaces. */
const listJsonCache = new WeakMap<readonly object[], WeakMap<Encoder, ListJson>>()

/**
 * The wire JSON ({@link writeResource}) of the records of `list` at `positions`, as UTF-8,
 * each kept once written, while `budget` (its instance's, shared by a server's sessions) has room. `list` is one
 * of the world's index arrays (a team's personas, a policy's rules): they are replaced, never
 * changed in place, when the world changes, so the JSON cannot go stale, and it goes when
 * the list does. A list shared by forks keeps its JSON once, taken from the budget of the first that read it.
 * @example encodeListed(Persona, team.ordered, [0, 1, 2], profile, instance.keptJson)
 */
export function encodeListed(
  schema: Schema,
  list: readonly object[],
  positions: readonly number[],
  profile: Profile,
  budget: JsonBudget,
): EncodedJson[] {
  const encode = encoderFor(schema, profile)
  const json = keptFor(list, encode, budget)
  return positions.map((position) => {
    const bytes = json.get(position)
    if (bytes !== undefined) return bytes
    const written = encode(list[position])
    return json.keep(position, written) ?? written
  })
}

/** The JSON kept for `list` as `encode` writes it, taking its memory from `budget`. */
function keptFor(list: readonly object[], encode: Encoder, budget: JsonBudget): ListJson {
  let byEncoder = listJsonCache.get(list)
  if (!byEncoder) listJsonCache.set(list, (byEncoder = new WeakMap()))
  let json = byEncoder.get(encode)
  if (!json) byEncoder.set(encode, (json = new ListJson(budget, list.length)))
  return json
}

/**
 * A record as FastAPI's `response_model` writes it: fields in the schema's order, every
 * field present (`null` where empty), floats written as floats (`1.0`), timestamps in the
 * profile's unit, in Python's JSON. The encoder is compiled once per schema and profile.
 * @example writeResource(Persona, record, profile)
 */
export const writeResource = (schema: Schema, record: unknown, profile: Profile): string =>
  encoderFor(schema, profile)(record)

function encoderFor(schema: Schema, profile: Profile): Encoder {
  let bySchema = encoderCache.get(schema)
  if (!bySchema) encoderCache.set(schema, (bySchema = new WeakMap()))
  let encode = bySchema.get(profile)
  if (!encode) bySchema.set(profile, (encode = compileRecordEncoder(schema, profile)))
  return encode
}
