/**
 * Values as Python holds them after `json.loads`, so that the mock can echo them back
 * (in a 422 `input`, or in stored metadata) exactly as FastAPI would write them.
 *
 * - `number` is a Python `int` that fits a JS safe integer; `bigint` is any larger `int`.
 * - `PyFloat` is a Python `float`: `1.0` stays `1.0` and `1e2` is written back as `100.0`.
 * - `PyDict` keeps insertion order for every key, including `"10"` or `"__proto__"`,
 *   which a plain JS object would reorder or treat as its prototype.
 */
export class PyFloat {
  constructor(readonly value: number) {}
}

export class PyDict extends Map<string, PyValue> {}

export type PyValue = null | boolean | number | bigint | PyFloat | string | PyValue[] | PyDict
