import { z } from 'zod'
import { Persona } from '../../model/schemas.js'

/**
 * What a persona left out of a record means. The description's Persona table gives some fields marked "Required:
 * no" a default (intent benign, is_preset false, knowledge_level intermediate, skill_level competent, language en),
 * and a server answering with `response_model_exclude_unset=True` leaves a field out that holds it; one answering
 * with `response_model_exclude_none=True` leaves out a field that is `None`. The project's Persona schema carries
 * the same defaults (it builds the mock's records), so they are read from it rather than listed again here; its
 * optional fields without a default in the description default to `null`, which is what absent means for them.
 */
const PERSONA_DEFAULTS: ReadonlyMap<string, unknown> = new Map(
  Object.entries(Persona.shape).flatMap(([name, field]) =>
    field instanceof z.ZodDefault ? [[name, field.parse(undefined)] as const] : [],
  ),
)

/**
 * A persona's field as the server means it: its value when the record has the field, else the field's documented
 * default, else `null` (absent). A field the record has keeps its value, `null` included: only a left-out field is
 * read as the default.
 * @example personaField({ id: '…' }, 'intent') // 'benign'
 */
export function personaField(record: Readonly<Record<string, unknown>>, field: string): unknown {
  if (Object.hasOwn(record, field)) return record[field]
  return PERSONA_DEFAULTS.has(field) ? PERSONA_DEFAULTS.get(field) : null
}
