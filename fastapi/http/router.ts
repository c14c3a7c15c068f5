/** A route as FastAPI declares it: one method, a path template with `{param}` segments. */
export interface Route {
  readonly name: string
  readonly method: string
  readonly path: string
  /**
   * Starlette's own `Route` (FastAPI's /openapi.json and /docs) answers HEAD wherever it
   * answers GET; an `APIRoute` (the API's endpoints) does not.
   */
  readonly head?: boolean
}

export type RouteResult<R extends Route> =
  | { kind: 'match'; route: R; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'redirect'; path: string }
  | { kind: 'not_found' }

/**
 * Starlette's `Router.app` over a route table: the first route matching path and method
 * wins; otherwise the first path-only match answers 405; otherwise, if adding or removing
 * the trailing slash matches any route, 307; otherwise 404. Paths are matched decoded and
 * case-sensitively, each `{param}` as `[^/]+`.
 */
export function createRouter<R extends Route>(routes: readonly R[]): (method: string, path: string) => RouteResult<R> {
  const compiled = routes.map((route) => ({ route, pattern: compilePath(route.path) }))
  const match = (path: string) => compiled.filter(({ pattern }) => pattern.test(path))
  return (method, path) => {
    const candidates = match(path)
    const full = candidates.find(
      ({ route }) => route.method === method || (method === 'HEAD' && route.head && route.method === 'GET'),
    )
    if (full) return { kind: 'match', route: full.route, params: { ...full.pattern.exec(path)?.groups } }
    const partial = candidates[0]
    if (partial)
      return {
        kind: 'method_not_allowed',
        allow: partial.route.head ? [partial.route.method, 'HEAD'] : [partial.route.method],
      }
    if (path !== '/') {
      const twin = path.endsWith('/') ? path.replace(/\/+$/, '') : `${path}/`
      if (match(twin).length > 0) return { kind: 'redirect', path: twin }
    }
    return { kind: 'not_found' }
  }
}

/**
 * Starlette's `compile_path` for `str` parameters: `^...$` as Python's `re` reads it, where
 * `$` also matches before one final newline (`/v1/personas/%0A` is the personas route).
 */
function compilePath(template: string): RegExp {
  const source = template
    .split(/(\{[A-Za-z_][A-Za-z0-9_]*\})/)
    .map((part) =>
      part.startsWith('{') ? `(?<${part.slice(1, -1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('')
  return new RegExp(`^${source}\n?$`)
}
