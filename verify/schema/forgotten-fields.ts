/**
 * The optional fields a server leaves out of some records while it writes `null` for others. A field marked
 * "Required: no" may be missing from an answer: FastAPI's `response_model_exclude_none=True` drops every `None`.
 * But such a server drops every `None`: one that writes `null` elsewhere writes every field of its response model,
 * so a field it leaves out is missing from the model (a forgotten field).
 * @returns one sentence for each field left out, none when no `null` is written or no field is left out
 */
export function forgottenFields(
  records: ReadonlyArray<Record<string, unknown>>,
  optional: readonly string[],
): string[] {
  const written = new Set<string>()
  const missing = new Map<string, number>()
  for (const record of records)
    for (const field of optional) {
      if (!(field in record)) missing.set(field, (missing.get(field) ?? 0) + 1)
      else if (record[field] === null) written.add(field)
    }
  if (written.size === 0) return []
  const nulls = [...written].join(', ')
  return [...missing].map(
    ([field, count]) =>
      `results[].${field} missing in ${count} of ${records.length} records, though the server writes null for ` +
      `${nulls}: it does not leave out None (response_model_exclude_none), so it writes every field of its model`,
  )
}
