/**
 * The page's side of the plugin: the dev-only module that starts the worker, and the rewrite of
 * index.html that runs it before the app's own module scripts. The page is read as a browser reads
 * it (parse5: a script in a comment, a `<template>` or a `<noscript>` is none) and an inline module
 * as the browser's module loader does (es-module-lexer: which imports are static), then edited in
 * place: the rest of the page keeps its bytes.
 */
import { init as moduleLexerReady, parse as parseModule } from 'es-module-lexer'
import { type DefaultTreeAdapterTypes as Html, parse as parseHtml } from 'parse5'

/** The id the page imports the start module by (`virtual:` as Vite's docs name virtual modules). */
export const START_ID = 'virtual:agent-console-mock/start'

/**
 * The start module: seeds the world in the page and starts msw's worker with the plugin's options
 * (JSON, as they were given), and the page's `?scenario=` when it has one.
 * @note Top-level `await`: whatever imports it waits until the worker answers.
 */
export function startModule(browserEntry: string, options: Record<string, unknown>, workerUrl: string): string {
  return [
    `import { startMockWorker } from ${JSON.stringify(browserEntry)}`,
    `const options = { ...${JSON.stringify(options)}, serviceWorkerUrl: ${JSON.stringify(workerUrl)} }`,
    `const scenario = new URLSearchParams(location.search).get('scenario')`,
    `if (scenario !== null) options.scenario = scenario`,
    'await startMockWorker(options)',
    '',
  ].join('\n')
}

/** A script's `src` as an import specifier (`main.ts` would be a bare name); undefined for another origin's. */
function specifier(src: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src)) return undefined
  return /^\.{0,2}\//.test(src) ? src : `./${src}`
}

const START_IMPORT = `await import(${JSON.stringify(START_ID)})`

/** What the rewrite of a page did, and what it could not hold back. */
export interface StartedPage {
  html: string
  /** Inline module scripts with static imports (or re-exports): those run before the mock starts. */
  unheld: number
}

/** One change to the page's text: `[start, end)` replaced by `text`. */
interface Edit {
  start: number
  end: number
  text: string
}

/**
 * The page with its module scripts run only after the mock started. Those loaded from this origin by `src` become
 * one inline module, where the first of them stood, that imports the start module and then each of them in turn
 * (separate `<script>`s would not wait: a module's top-level `await` holds back only what imports it, and msw asks
 * the app to await the worker before its first request). An inline module first awaits the start module itself;
 * one with static imports cannot (they run before its first line, even before a sibling import's `await`), and is
 * counted in `unheld`. A page with no module script gets the start module in its `<head>`, or after its `<html>`
 * or doctype: never before the doctype, which would put the page in quirks mode.
 */
export async function startBeforeApp(html: string): Promise<StartedPage> {
  await moduleLexerReady
  const document = parseHtml(html, { sourceCodeLocationInfo: true })
  const edits: Edit[] = []
  const entries: string[] = []
  /** Where the first `src` module script stood: the loader goes there. */
  let firstEntry: Edit | undefined
  let unheld = 0
  let inlineHeld = false
  for (const script of elements(document, 'script')) {
    const where = script.sourceCodeLocation
    if (!where?.startTag || attribute(script, 'type')?.trim().toLowerCase() !== 'module') continue
    const src = attribute(script, 'src')
    const code = script.childNodes.map((node) => (node as Html.TextNode).value ?? '').join('')
    if (src === undefined) {
      if (!code.trim()) continue
      if (!holdsBack(code)) unheld++
      else {
        inlineHeld = true
        edits.push({ start: where.startTag.endOffset, end: where.startTag.endOffset, text: `${START_IMPORT}\n` })
      }
      continue
    }
    const entry = specifier(src)
    if (entry === undefined || code.trim()) continue
    entries.push(entry)
    const removed = { start: where.startOffset, end: where.endOffset, text: '' }
    firstEntry ??= removed
    edits.push(removed)
  }
  const imports = [START_ID, ...entries].map((entry) => `await import(${JSON.stringify(entry)})`).join('\n')
  const loader = `<script type="module">\n${imports}\n</script>`
  if (firstEntry) firstEntry.text = loader
  else if (!inlineHeld) edits.push({ ...topOf(document), text: loader })
  return { html: applied(html, edits), unheld }
}

/** Whether an inline module can wait for the start: it has no static import nor re-export (both run before it). */
function holdsBack(code: string): boolean {
  try {
    return parseModule(code)[0].every((found) => found.d !== -1)
  } catch {
    // Not a module the lexer reads (the browser will say why): left as it is, and counted as not held.
    return false
  }
}

/** Where a loader goes on a page with no module script: in `<head>`, after `<html>` or the doctype, or first. */
function topOf(document: Html.Document): { start: number; end: number } {
  const [html] = elements(document, 'html')
  const [head] = elements(document, 'head')
  const doctype = document.childNodes.find((node) => node.nodeName === '#documentType')
  const at =
    head?.sourceCodeLocation?.startTag?.endOffset ??
    html?.sourceCodeLocation?.startTag?.endOffset ??
    doctype?.sourceCodeLocation?.endOffset ??
    0
  return { start: at, end: at }
}

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml'

/**
 * The HTML elements named `name`, in document order: not those in comments, `<template>` contents or `<noscript>`,
 * nor an SVG `<script>` (which runs no module).
 */
function elements(node: Html.ParentNode, name: string): Html.Element[] {
  const found: Html.Element[] = []
  for (const child of node.childNodes) {
    if (!('tagName' in child)) continue
    if (child.tagName === name && child.namespaceURI === HTML_NAMESPACE) found.push(child)
    found.push(...elements(child, name))
  }
  return found
}

const attribute = (element: Html.Element, name: string) =>
  element.attrs.find((attr) => attr.name === name && !attr.prefix)?.value

/** `text` with `edits` made, from the last to the first so that each offset still holds. */
const applied = (text: string, edits: Edit[]): string =>
  [...edits]
    .sort((a, b) => b.start - a.start)
    .reduce((page, edit) => page.slice(0, edit.start) + edit.text + page.slice(edit.end), text)
