/**
 * A time as Playwright's `page.clock.install({ time })` and `setFixedTime(time)` take it: a `Date`,
 * milliseconds since the epoch, or a string `Date` parses (ISO 8601 best).
 */
export type ClockTime = Date | number | string

/** What `GET /__mock/clock` answers. */
export interface ClockState {
  /** ISO 8601, UTC, with milliseconds. */
  now: string
  /** Whole seconds since the epoch, as the records' timestamps and the token checks count them. */
  epoch_seconds: number
  frozen: boolean
}

/** How a clock is set: frozen, the time itself; running, how far it is ahead of real time. */
export interface ClockSetting {
  readonly ms: number
  readonly frozen: boolean
}

/** A clock on real time, running: what a reset sets. */
export const REAL_TIME: ClockSetting = { ms: 0, frozen: false }

/** The latest time the clock takes: Python's `datetime.max` (9999-12-31T23:59:59Z), PyJWT's clock runs no further. */
export const LATEST_TIME_MS = 253_402_300_799_000

/**
 * The time of one mock instance: what stamps `created_at`/`updated_at` of new records and what
 * token `exp`/`nbf`/`iat` are checked against. It runs on real time until set; a clock set
 * and not frozen runs on from the time set; a frozen one moves only when set or advanced.
 * @example
 * clock.set('2026-03-01T09:00:00Z', { frozen: true })
 * clock.advance(3600) // 10:00, still frozen
 */
export class Clock {
  /** Frozen: the time itself. Running: how far the clock is ahead of real time. */
  #ms = 0
  #frozen = false

  /** The current time, as a `Date`. */
  now(): Date {
    return new Date(this.nowMs())
  }

  /** The current time in milliseconds since the epoch (the clock's `Date.now()`). */
  nowMs(): number {
    return this.#frozen ? this.#ms : Date.now() + this.#ms
  }

  /** The current time in whole seconds, as PyJWT's `timegm(datetime.now(tz=timezone.utc).utctimetuple())`. */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000)
  }

  get frozen(): boolean {
    return this.#frozen
  }

  /**
   * Sets the time. `frozen` stops or starts the clock; left out, the clock keeps its state
   * (a running clock runs on from `time`, as Playwright's `setSystemTime`).
   * @throws RangeError for a time that is not a valid date, before 1970 or after 9999
   */
  set(time: ClockTime, options: { frozen?: boolean } = {}): this {
    const ms = toMs(time)
    this.#frozen = options.frozen ?? this.#frozen
    this.#ms = this.#frozen ? ms : ms - Date.now()
    return this
  }

  /** Stops the clock: at `time`, or where it is now (as Playwright's `setFixedTime`). */
  freeze(time?: ClockTime): this {
    return this.set(time ?? this.nowMs(), { frozen: true })
  }

  /** Lets a frozen clock run on from where it stopped. */
  resume(): this {
    return this.set(this.nowMs(), { frozen: false })
  }

  /**
   * Moves the clock forward, frozen or not (as Playwright's `fastForward`).
   * @throws RangeError for a negative or non-finite number of seconds, or past 9999
   */
  advance(seconds: number): this {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new RangeError(`The clock advances by a finite, non-negative number of seconds, got ${String(seconds)}.`)
    }
    return this.set(this.nowMs() + seconds * 1000)
  }

  /** Back to real time, running. */
  reset(): this {
    return this.putBack(REAL_TIME)
  }

  /** How the clock is set now, to {@link putBack} later: a running clock keeps running from where it would be. */
  get setting(): ClockSetting {
    return { ms: this.#ms, frozen: this.#frozen }
  }

  /** Sets the clock as {@link setting} read it (an undone change puts back the clock it found). */
  putBack(setting: ClockSetting): this {
    this.#ms = setting.ms
    this.#frozen = setting.frozen
    return this
  }

  /** What `GET /__mock/clock` answers. */
  state(): ClockState {
    const ms = this.nowMs()
    return { now: new Date(ms).toISOString(), epoch_seconds: Math.floor(ms / 1000), frozen: this.#frozen }
  }
}

/** A time as milliseconds since the epoch. */
function toMs(time: ClockTime): number {
  const ms = time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time)
  if (!Number.isFinite(ms) || (typeof time === 'string' && !dayExists(time)))
    throw new RangeError(`Not a time: ${describeTime(time)}.`)
  if (ms < 0 || ms > LATEST_TIME_MS) {
    throw new RangeError(
      `The clock runs from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z (timestamps are non-negative), got ${describeTime(time)}.`,
    )
  }
  return ms
}

/**
 * Whether the calendar day a date string starts with exists: `Date.parse` rolls `2030-02-30` over to March 2nd,
 * a day the caller did not mean. A string not in that form is left to `Date.parse`.
 */
function dayExists(text: string): boolean {
  const parts = /^\s*([+-]?\d{4,6})-(\d{2})-(\d{2})/.exec(text)
  if (!parts) return true
  const [year, month, day] = parts.slice(1).map(Number) as [number, number, number]
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

const describeTime = (time: ClockTime): string =>
  typeof time === 'number'
    ? `${time} ms`
    : time instanceof Date
      ? Number.isNaN(time.getTime())
        ? 'an invalid Date'
        : time.toISOString()
      : JSON.stringify(time)
