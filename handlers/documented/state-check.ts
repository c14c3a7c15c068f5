import type { ServedDocument } from '../../fastapi/served/document.js'
import { recordProblems } from '../../fastapi/served/response.js'
import type { DocumentedContents } from '../../model/documented.js'
import { conventionsOf, type Collection } from './conventions.js'

/** Problems a refusal names at most: a state of thousands of bad records gets a readable answer. */
const PROBLEMS_SHOWN = 10

/**
 * What is wrong with a state's records of the served document's collections (an import, an uploaded snapshot, a
 * state file), or undefined: each collection must be one the document declares, each record must fit the record
 * schema (as the answers that will show it are validated), and no id may be there twice (a record without one, in a
 * collection whose schema has none, is no duplicate).
 * @example documentedStateCheck(document)({ '/v1/agents': [{ id: 5 }] }) // 'documented./v1/agents[0].name: ...'
 */
export function documentedStateCheck(document: ServedDocument): (contents: DocumentedContents) => string | undefined {
  const collections = new Map<string, Collection>()
  for (const convention of conventionsOf(document).values())
    if ('collection' in convention) collections.set(convention.collection.key, convention.collection)
  return (contents) => {
    const problems: string[] = []
    for (const [key, records] of Object.entries(contents)) {
      const collection = collections.get(key)
      const at = `documented.${key}`
      if (!collection) {
        problems.push(`${at}: no collection of the served document (${[...collections.keys()].join(', ')})`)
        continue
      }
      const seen = new Map<string, number>()
      records.forEach((record, index) => {
        for (const problem of recordProblems(document, collection.schema, record))
          problems.push(`${at}[${index}].${problem}`)
        // A record without an id clashes with none, as the writes that stored it had it (`idTaken`).
        const id = record[collection.idField]
        if (id === undefined || id === null) return
        const earlier = seen.get(String(id))
        if (earlier !== undefined)
          problems.push(`${at}[${index}].${collection.idField}: the id of item ${earlier} again`)
        seen.set(String(id), index)
      })
    }
    if (problems.length === 0) return undefined
    const more = problems.length > PROBLEMS_SHOWN ? ` (and ${problems.length - PROBLEMS_SHOWN} more)` : ''
    return problems.slice(0, PROBLEMS_SHOWN).join('; ') + more
  }
}
