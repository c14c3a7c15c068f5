import { readFile } from 'node:fs/promises'
import { ServedDocument } from '../fastapi/served/document.js'
import { whyUnreachable } from '../verify/client/unreachable.js'

/** An OpenAPI document to serve: a file's path, an `http(s)` URL (a running app's `/openapi.json`), or one parsed. */
export type OpenApiSource = string | URL | object

/**
 * Reads a document to serve, before any mock intercepts `fetch`.
 * @throws Error saying which file or URL could not be read, or why it is no OpenAPI 3.0 or 3.1 document
 */
export async function loadOpenApi(source: OpenApiSource): Promise<ServedDocument> {
  if (source instanceof ServedDocument) return source
  if (!(source instanceof URL) && typeof source === 'object') return new ServedDocument(source)
  return (await readDocument(source)).document
}

/**
 * The parsed JSON of the document a file or URL holds, checked as {@link loadOpenApi} checks it: for a host
 * that hands the document on as JSON (the Vite plugin writes it into the page).
 * @throws Error saying which file or URL could not be read, or why it is no OpenAPI 3.0 or 3.1 document
 */
export async function readOpenApi(source: string | URL): Promise<object> {
  return (await readDocument(source)).parsed
}

async function readDocument(source: string | URL): Promise<{ parsed: object; document: ServedDocument }> {
  const isUrl = source instanceof URL || /^https?:\/\//i.test(source)
  const where = String(source)
  let text: string
  try {
    text = isUrl ? await fetchText(where) : await readFile(where, 'utf8')
  } catch (error) {
    throw new Error(`cannot read the OpenAPI document ${where}: ${(error as Error).message}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(`the OpenAPI document ${where} is not JSON (${(error as Error).message}): give its /openapi.json`)
  }
  try {
    return { parsed: parsed as object, document: new ServedDocument(parsed) }
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`)
  }
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url, { headers: { accept: 'application/json' } }).catch((error: unknown) => {
    throw new Error(whyUnreachable(error))
  })
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  return response.text()
}
