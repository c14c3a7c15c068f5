import { WRONG_SCHEME_DETAIL } from '../../fastapi/http/security.js'
import { DEFAULT_ERROR_TEXTS, type ErrorTextName } from '../../model/profile.js'

/**
 * The `detail` texts of the server's 400/401/403/404/409 answers, by situation: the `errorTexts`
 * profile setting, plus the wrong-scheme text, which only FastAPI ≤0.121 words differently.
 */
export type ErrorSituation = ErrorTextName | 'wrongScheme'

/** What the mock says in each situation (the wrong-scheme text follows the missing-credentials status). */
export function mockErrorTexts(missingCredentialsStatus: number): Record<ErrorSituation, string> {
  const wrongScheme = missingCredentialsStatus === 403 ? WRONG_SCHEME_DETAIL : DEFAULT_ERROR_TEXTS.notAuthenticated
  return { ...DEFAULT_ERROR_TEXTS, wrongScheme }
}

/** What varies in a text: the permission a 403 names, the duplicate values a 409 lists. */
export interface TextParts {
  permission?: string
  values?: readonly string[]
}

/**
 * A detail as a template: the permission becomes `{permission}`; the stretch from the first to the
 * last duplicate value named becomes `{values}` (however the server joins them).
 * @example templateOf('Duplicate values: a, b', { values: ['a', 'b'] }) // 'Duplicate values: {values}'
 */
export function templateOf(detail: string, parts: TextParts = {}): string {
  let text = parts.permission ? detail.split(parts.permission).join('{permission}') : detail
  const found = (parts.values ?? []).filter((value) => value && text.includes(value))
  if (found.length > 0) {
    const start = Math.min(...found.map((value) => text.indexOf(value)))
    const end = Math.max(...found.map((value) => text.lastIndexOf(value) + value.length))
    text = `${text.slice(0, start)}{values}${text.slice(end)}`
  }
  return text
}
