import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { appEnv, binOf } from './app.js'
import { viteAnswer } from './chromium.js'
import { docExample } from './readme.js'

const DOC = 'docs/testing-kits.md'
const HEADING = '## Storybook'

/**
 * The app's own render of the stories in the doc's `personas.stories.ts`: it asks the story's mock for its
 * fixtures and a page of personas, as an app's component would, and another of its backends that the mock passes
 * on (not an asset, which msw never warns about; whatever Storybook's server answers), and leaves what it got on
 * the page.
 */
const RENDER_PERSONAS = `
function renderPersonas(): HTMLElement {
  const element = document.createElement('p')
  void (async () => {
    const fixtures = await (await fetch('/__mock/fixtures')).json()
    const headers = { authorization: 'Bearer ' + fixtures.tokens.team_reader }
    const page = await (await fetch('/v1/personas/?limit=100', { headers })).json()
    const names = page.results.map((persona: { name: string }) => persona.name)
    const passedOn = await fetch('/feature-flags').then(() => 'answered', String)
    document.body.dataset.answer = JSON.stringify({ seed: fixtures.seed, total: page.total, ada: names.includes('Ada'), passedOn })
  })()
  return element
}
`

/**
 * A Storybook in `storybook/`, from the doc's Storybook section as written (.storybook/main.ts, preview.ts and
 * the stories, with the app's render), built with the app's Storybook into `storybook/dist`.
 */
export function buildStorybookApp(project: string): void {
  const files: Record<string, string> = {
    'storybook/.storybook/main.ts': docExample(DOC, HEADING, '.storybook/main.ts'),
    'storybook/.storybook/preview.ts': docExample(DOC, HEADING, '.storybook/preview.ts'),
    'storybook/src/personas.stories.ts': docExample(DOC, HEADING, 'personas.stories.ts') + RENDER_PERSONAS,
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(project, file, '..'), { recursive: true })
    writeFileSync(join(project, file), text)
  }
  const config = ['-c', 'storybook/.storybook', '-o', 'storybook/dist', '--quiet']
  execFileSync(process.execPath, [binOf(project, 'storybook'), 'build', ...config], {
    cwd: project,
    encoding: 'utf8',
    // Storybook reports usage over the network unless told not to (a team's CI would set it too).
    env: { ...appEnv(), STORYBOOK_DISABLE_TELEMETRY: '1' },
  })
}

/** The static build served as files; the doc's `Arranged` story alone, as Storybook's preview iframe renders it. */
export const runArrangedStory = (project: string) =>
  viteAnswer(project, ['preview', 'storybook', '--outDir', 'dist'], 'iframe.html?id=personas--arranged&viewMode=story')
