/** A JSON schema, as pydantic writes one. */
export type JsonSchema = { [key: string]: unknown }

export function isJsonObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
