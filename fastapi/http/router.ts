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

/** How a router answers what no route takes; Starlette's choices unless told otherwise. */
export interface RouterOptions {
  /**
   * Starlette's `redirect_slashes`: a path no route matches, that one would match with its
   * trailing slash added or removed, is a redirect to that path; else it is not found.
   * @default true
   */
  readonly redirectSlashes?: boolean
  /**
   * Whose methods a 405's `allow` lists: the first route whose path matched (Starlette's
   * `Route.handle`), or every route whose path matched, in table order.
   * @default 'first'
   */
  readonly allowFrom?: 'first' | 'every'
}

/**
 * Starlette's `Router.app` over a route table: the first route matching path and method
 * wins; otherwise the first path-only match answers 405; otherwise, if adding or removing
 * the trailing slash matches any route, 307; otherwise 404. Paths are matched as given
 * (the API hands them in decoded) and case-sensitively, each `{param}` as `[^/]+`.
 */
export function createRouter<R extends Route>(
  routes: readonly R[],
  { redirectSlashes = true, allowFrom = 'first' }: RouterOptions = {},
): (method: string, path: string) => RouteResult<R> {
  const compiled = routes.map((route) => ({ route, pattern: compilePath(route.path) }))
  const match = (path: string) => compiled.filter(({ pattern }) => pattern.test(path))
  return (method, path) => {
    const candidates = match(path)
    const full = candidates.find(({ route }) => answersMethod(route, method))
    if (full) return { kind: 'match', route: full.route, params: { ...full.pattern.exec(path)?.groups } }
    const allowing = allowFrom === 'first' ? candidates.slice(0, 1) : candidates
    if (allowing.length > 0)
      return { kind: 'method_not_allowed', allow: allowing.flatMap(({ route }) => methodsOf(route)) }
    if (redirectSlashes && path !== '/') {
      const twin = path.endsWith('/') ? path.replace(/\/+$/, '') : `${path}/`
      if (match(twin).length > 0) return { kind: 'redirect', path: twin }
    }
    return { kind: 'not_found' }
  }
}

const answersMethod = (route: Route, method: string): boolean =>
  route.method === method || (method === 'HEAD' && route.head === true && route.method === 'GET')

/** The methods a route answers, as a 405's `allow` names them. */
const methodsOf = (route: Route): string[] => (route.head ? [route.method, 'HEAD'] : [route.method])

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
