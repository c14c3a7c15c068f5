/**
 * CPython's `json.JSONDecodeError`: FastAPI turns it into a 422 `json_invalid` error whose
 * `loc` is `["body", pos]` and whose `ctx.error` is `msg`.
 */
export class JsonDecodeError extends Error {
  constructor(
    /** The bare message, without the `: line X column Y (char Z)` suffix Python adds. */
    readonly msg: string,
    /** A code-point index into the decoded text. */
    readonly pos: number,
  ) {
    super(`${msg}: char ${pos}`)
    this.name = 'JsonDecodeError'
  }
}

/**
 * Any other exception out of `json.loads` (`UnicodeDecodeError`, the `ValueError` of an int
 * with too many digits, `RecursionError`). FastAPI answers those with a 400
 * `{"detail":"There was an error parsing the body"}`.
 */
export class UnparseableJsonError extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'UnparseableJsonError'
  }
}
