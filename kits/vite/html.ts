/**
 * The page's side of the plugin: the dev-only module that starts the worker, and the rewrite of
 * index.html that runs it before the app's own module scripts.
 */

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

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi
const attribute = (attributes: string, name: string) =>
  new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attributes)?.slice(1).find(Boolean)

/** A script's `src` as an import specifier (`main.ts` would be a bare name); undefined for another origin's. */
function specifier(src: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src)) return undefined
  return /^\.{0,2}\//.test(src) ? src : `./${src}`
}

/** A static `import` declaration (not `import(...)` or `import.meta`): hoisted, it runs before any `await`. */
const STATIC_IMPORT = /(?:^|[;\n}])\s*import(?:\s*[{*'"]|\s+[\w$])/

const START_IMPORT = `await import(${JSON.stringify(START_ID)})`
const MARK = '<!--agent-console-mock:start-->'

/** What the rewrite of a page did, and what it could not hold back. */
export interface StartedPage {
  html: string
  /** Inline module scripts with static imports: those imports run before the mock starts. */
  unheld: number
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
export function startBeforeApp(html: string): StartedPage {
  const entries: string[] = []
  let unheld = 0
  let held = 0
  const rewritten = html.replace(SCRIPT, (tag, attributes: string, code: string) => {
    if (attribute(attributes, 'type') !== 'module') return tag
    const src = attribute(attributes, 'src')
    if (src === undefined) {
      if (!code.trim()) return tag
      if (STATIC_IMPORT.test(code)) return (unheld++, tag)
      held++
      return `<script${attributes}>${START_IMPORT}\n${code}</script>`
    }
    const entry = specifier(src)
    if (entry === undefined || code.trim()) return tag
    entries.push(entry)
    return entries.length === 1 ? MARK : ''
  })
  const imports = [START_ID, ...entries].map((entry) => `await import(${JSON.stringify(entry)})`).join('\n')
  const loader = `<script type="module">\n${imports}\n</script>`
  if (entries.length > 0) return { html: rewritten.replace(MARK, loader), unheld }
  if (held > 0) return { html: rewritten, unheld }
  return { html: withLoaderAtTop(rewritten, loader), unheld }
}

/** The loader first in `<head>`, else right after `<html ...>`, else after the doctype, else first. */
function withLoaderAtTop(html: string, loader: string): string {
  for (const opening of [/<head\b[^>]*>/i, /<html\b[^>]*>/i, /<!doctype[^>]*>/i]) {
    const found = opening.exec(html)
    if (found) return html.slice(0, found.index + found[0].length) + loader + html.slice(found.index + found[0].length)
  }
  return loader + html
}
