/**
 * The scenario picker: the scenarios the mock knows (`GET /__mock/scenarios`), the one the world
 * is in (`GET /__mock/scenario`), and a switch that reloads the page with `?scenario=<names>`.
 * In worker mode the in-browser mock starts with the page URL's scenario; in the other modes the
 * page selects it for its world (`PUT /__mock/scenario`: the session's, or the test's) before the
 * panels load, and only when it differs, so a reload keeps what the page wrote.
 */
import type { ApiClient } from './api.js'
import type { Mode } from './context.js'
import { h } from './ui.js'

interface Known {
  scenarios: Array<{ name: string; description: string }>
}

/**
 * Outside worker mode, puts the page's world in the scenarios `?scenario=` names (`''`: none, the
 * plain seeded world) if it is not in them already; a URL without it changes nothing. Returns
 * the API's refusal (an unknown name: 400 listing the known ones), if any.
 */
export async function selectWantedScenario(mode: Mode, api: ApiClient, wanted: string | undefined) {
  if (mode === 'worker' || wanted === undefined) return undefined
  const names = splitNames(wanted)
  const selected = await api.get<{ scenarios: string[] }>('/__mock/scenario')
  if (selected.ok && selected.data.scenarios.join(',') === names.join(',')) return undefined
  const result = await api.request('PUT', '/__mock/scenario', {}, { scenarios: names })
  return result.ok ? undefined : result
}

/** The picker, or null when the mock does not list its scenarios (an older server, the control API off). */
export async function createScenarioPicker(api: ApiClient): Promise<HTMLSelectElement | null> {
  const [known, selected] = await Promise.all([
    api.get<Known>('/__mock/scenarios'),
    api.get<{ scenarios: string[] }>('/__mock/scenario'),
  ])
  if (!known.ok) return null
  const current = selected.ok ? selected.data.scenarios.join(',') : ''
  const picker = h(
    'select',
    { 'data-testid': 'scenario-select', id: 'scenario' },
    h('option', { value: '', title: 'the seeded world, no scenario' }, 'none'),
    ...known.data.scenarios.map(({ name, description }) => h('option', { value: name, title: description }, name)),
  )
  // Several composed (`?scenario=empty-team,slow`) are not one of the options: shown as they are.
  if (current && !known.data.scenarios.some(({ name }) => name === current))
    picker.append(h('option', { value: current }, current.replaceAll(',', ' + ')))
  picker.value = current
  picker.addEventListener('change', () => {
    const url = new URL(location.href)
    url.searchParams.set('scenario', picker.value)
    location.assign(url)
  })
  return picker
}

const splitNames = (names: string): string[] =>
  names
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
