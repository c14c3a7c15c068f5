/**
 * msw request predicates over the raw (still percent-encoded) pathname. msw's own path
 * patterns decode the path with `decodeURIComponent`, which throws on escapes that are not
 * UTF-8 (`%FF`) or not escapes at all (`%zz`) and turns them into msw's 500; FastAPI answers
 * such paths like any other. So no handler here uses a path pattern.
 */
export const onPath =
  (base: string, test: (pathname: string) => boolean) =>
  ({ request }: { request: Request }): boolean => {
    const url = new URL(request.url)
    return (base === '*' || url.origin === base) && test(url.pathname)
  }

/** A predicate for one exact pathname. */
export const atPath = (base: string, pathname: string) => onPath(base, (candidate) => candidate === pathname)
