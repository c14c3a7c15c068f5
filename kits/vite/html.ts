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

const SCRIPT = /<script\b([^>]*)>\s*<\/script>/gi
const attribute = (attributes: string, name: string) =>
  new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attributes)?.slice(1).find(Boolean)

/** A script's `src` as an import specifier (`main.ts` would be a bare name); undefined for another origin's. */
function specifier(src: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src)) return undefined
  return /^\.{0,2}\//.test(src) ? src : `./${src}`
}

/**
 * The page with its module scripts (those loaded from this origin by `src`) run only after the mock
 * started: one inline module, where the first of them stood, imports the start module and then each
 * of them in turn. Separate `<script>`s would not wait: a module's top-level `await` holds back only
 * what imports it, and msw asks the app to await the worker before its first request.
 */
export function startBeforeApp(html: string): string {
  const entries: string[] = []
  const rewritten = html.replace(SCRIPT, (tag, attributes: string) => {
    const src = attribute(attributes, 'src')
    const entry = src === undefined ? undefined : specifier(src)
    if (attribute(attributes, 'type') !== 'module' || entry === undefined) return tag
    entries.push(entry)
    return entries.length === 1 ? '<!--agent-console-mock:start-->' : ''
  })
  const imports = [START_ID, ...entries].map((entry) => `await import(${JSON.stringify(entry)})`).join('\n')
  const loader = `<script type="module">\n${imports}\n</script>`
  if (entries.length > 0) return rewritten.replace('<!--agent-console-mock:start-->', loader)
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}\n${loader}`) : loader + html
}
