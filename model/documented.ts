/**
 * Records of the collections a served OpenAPI document declares (`/v1/agents/`), kept in the world beside its own
 * collections. Their schemas are the document's, not the mock's: a record is plain JSON. The whole is replaced on
 * every write, never changed, so that forks and snapshots share it as they share records.
 */
export type DocumentedRecord = Readonly<Record<string, unknown>>

/** Each collection's records in storage order, by the collection's path (`/v1/agents`). */
export type DocumentedContents = Readonly<Record<string, readonly DocumentedRecord[]>>

export const NO_DOCUMENTED: DocumentedContents = Object.freeze({})
