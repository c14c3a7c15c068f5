/**
 * Progress of a crawl on stderr. On a terminal one line is rewritten after every page; elsewhere (CI logs, a file)
 * a line is written only each time another {@link MILESTONE} records have been read, and once at the end of each
 * list, so that a log of a long crawl stays readable.
 */

/** Records between two progress lines when stderr is not a terminal. */
const MILESTONE = 10_000

const count = (value: number) => value.toLocaleString('en-US')

export class Progress {
  #lastMilestone = 0

  constructor(
    readonly write: (text: string) => void,
    readonly terminal: boolean,
  ) {}

  /** After a page: `done` records of `total` read from the list named `label`. */
  update(label: string, done: number, total: number): void {
    if (this.terminal) {
      this.write(`\r${label}: ${count(done)}/${count(total)}\x1b[K`)
      return
    }
    const milestone = Math.floor(done / MILESTONE)
    // The last page's line is the end's (finish).
    if (milestone > this.#lastMilestone && done < total) this.write(`${label}: ${count(done)}/${count(total)}\n`)
    this.#lastMilestone = milestone
  }

  /** The end of a list: one line, whatever the output, with `note` after it (a cut, a total that changed). */
  finish(label: string, done: number, total: number | undefined, note = ''): void {
    this.#lastMilestone = 0
    const of = total === undefined ? '' : `/${count(total)}`
    this.write(`${this.terminal ? '\r' : ''}${label}: ${count(done)}${of}${note}${this.terminal ? '\x1b[K' : ''}\n`)
  }
}
