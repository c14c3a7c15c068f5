import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process'
import { createInterface } from 'node:readline'

/** Debian's interpreter, which python3-jwt installs into (the `python3` on PATH may be another). */
const PYTHON = '/usr/bin/python3'

/**
 * The server's token check, as test/fastapi/app.py writes it: PyJWT's decode, then its `Claims`
 * model. One verdict line per token line: `accepted`, `401 <error>` (what the server catches) or
 * `500 <error>` (an exception it does not catch, such as `TypeError` or `RecursionError`).
 */
const ORACLE = `
import json, sys, jwt
from typing import List, Optional
from pydantic import BaseModel, StrictBool, StrictStr, ValidationError, constr

class Claims(BaseModel):
    sub: constr(strict=True, min_length=1)
    team_id: Optional[StrictStr] = None
    permissions: List[StrictStr] = []
    is_super_admin: StrictBool = False

for line in sys.stdin:
    token, secret = json.loads(line)
    try:
        Claims.parse_obj(jwt.decode(token, secret, algorithms=["HS256"], options={"require": ["sub"]}))
        verdict = "accepted"
    except (jwt.PyJWTError, ValidationError) as error:
        verdict = "401 " + type(error).__name__
    except Exception as error:
        verdict = "500 " + type(error).__name__
    print(json.dumps(verdict), flush=True)
`

/** Why PyJWT cannot be asked on this machine, or `undefined` when it can. */
export function pyjwtUnavailable(): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import jwt, pydantic; print(jwt.__version__)'], {
    encoding: 'utf8',
    timeout: 15_000,
  })
  if (probe.status === 0) return undefined
  const why = probe.error?.message ?? probe.stderr.trim().split('\n').pop()
  return `${PYTHON} cannot import jwt and pydantic (${why}): apt-get install -y python3-jwt python3-pydantic`
}

/** A PyJWT process that judges tokens one at a time, in order. */
export class PyJwtOracle {
  readonly #child: ChildProcessWithoutNullStreams
  readonly #waiting: Array<(verdict: string) => void> = []

  constructor() {
    this.#child = spawn(PYTHON, ['-c', ORACLE], {
      env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', PYTHONIOENCODING: 'utf-8', PYTHONDONTWRITEBYTECODE: '1' },
    })
    createInterface({ input: this.#child.stdout }).on('line', (line) => this.#waiting.shift()?.(JSON.parse(line)))
    this.#child.stderr.setEncoding('utf8').on('data', (text: string) => console.error(`PyJWT oracle: ${text}`))
  }

  /** What the server makes of the token, e.g. `accepted`, `401 ExpiredSignatureError`, `500 TypeError`. */
  verdict(token: string, secret: string): Promise<string> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve)
      this.#child.stdin.write(`${JSON.stringify([token, secret])}\n`)
    })
  }

  /** Ends the process (it exits at the end of its input) and waits for it. */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return
    const exited = new Promise((resolve) => this.#child.once('exit', resolve))
    this.#child.stdin.end()
    await exited
  }
}
