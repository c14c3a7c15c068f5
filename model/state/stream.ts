import { TimeSlice } from '../time-slice.js'
import type { WorldContents } from '../world.js'
import { encodePythonJson } from '../../fastapi/python/json-encode.js'
import { documentedMember, headerOf, originOf, type WorldState } from './index.js'

/** Text handed to the stream at once: about 64 K characters of JSON (64 to 192 KB of UTF-8). */
const CHUNK_CHARS = 64 * 1024

/**
 * The state as `serializeState` writes it, byte for byte, in pieces: the header, then each
 * record's JSON (written as the whole document would write it: a record is a member of an
 * array, so its text does not depend on what surrounds it), with the brackets and commas
 * between. Reads `state.contents` as it goes: give it a {@link snapshotOf} one.
 */
export function* statePieces(state: WorldState): Generator<string> {
  const header = encodePythonJson(headerOf(state))
  yield `${header.slice(0, -1)},"world":{`
  let collections = 0
  for (const [name, records] of Object.entries(state.contents) as Array<[string, readonly unknown[] | undefined]>) {
    if (records === undefined) continue // the whole encoder leaves undefined members out
    yield `${collections++ > 0 ? ',' : ''}${JSON.stringify(name)}:[`
    for (let i = 0; i < records.length; i++)
      yield i > 0 ? `,${encodePythonJson(records[i])}` : encodePythonJson(records[i])
    yield ']'
  }
  const { documented } = documentedMember(state)
  yield documented ? `},"documented":${encodePythonJson(documented)}}` : '}}'
}

/**
 * The state with its own copy of each collection's array of records, taken at once: the
 * records themselves are shared, which is safe because @msw/data replaces a record on update
 * (and a bulk add appends new ones), never changing one in place. What it holds is a
 * consistent snapshot, whatever is written while it is read.
 */
export function snapshotOf(state: WorldState): WorldState {
  const contents = Object.fromEntries(
    Object.entries(state.contents).map(([name, records]) => [name, (records as unknown[] | undefined)?.slice()]),
  ) as unknown as WorldContents
  return { ...originOf(state), contents, ...documentedMember(state) }
}

/**
 * The state's text, byte for byte what `serializeState` writes, built in slices that give the
 * event loop back (a state file's snapshot of a large world). Give it a {@link snapshotOf} state.
 */
export async function stateText(state: WorldState): Promise<string> {
  const slice = new TimeSlice()
  const parts: string[] = []
  for (const piece of statePieces(state)) {
    parts.push(piece)
    if (slice.due()) await slice.yield()
  }
  return parts.join('')
}

/** What ends an export that is left unread, and when it ended. */
export interface StateStreamOptions {
  /** An export whose reader asks for nothing for this long is ended with an error (its memory freed). */
  idleMs: number
  /** Called once when the export ends: read to the end, cancelled, or dropped for being idle. */
  onEnd?: () => void
}

/**
 * The state as a byte stream, produced as it is read (pull-based: a chunk at a time, only when
 * the reader asks, so a slow reader holds at most one chunk here beyond what its socket
 * buffers), from a snapshot taken now. Each chunk is a few milliseconds of work at most, and
 * the stream gives the event loop back every few milliseconds even to a reader that never
 * waits (model/time-slice.ts). Its bytes are those of `serializeState(state)`.
 * @example new Response(stateStream({ seed, personasPerTeam, contents: world.contents() }, { idleMs: 60_000 }))
 */
export function stateStream(state: WorldState, options: StateStreamOptions): ReadableStream<Uint8Array<ArrayBuffer>> {
  const pieces = statePieces(snapshotOf(state))
  const utf8 = new TextEncoder()
  const slice = new TimeSlice()
  let idle: ReturnType<typeof setTimeout> | undefined
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    clearTimeout(idle)
    pieces.return(undefined)
    options.onEnd?.()
  }
  const watch = (controller: ReadableStreamDefaultController) => {
    clearTimeout(idle)
    idle = setTimeout(() => {
      controller.error(new Error(`The state export was not read for ${options.idleMs} ms and was dropped.`))
      end()
    }, options.idleMs)
    // In Node, an idle export must not keep the process alive (the timer is a number in browsers).
    ;(idle as { unref?: () => void }).unref?.()
  }
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      start: watch,
      async pull(controller) {
        clearTimeout(idle)
        // A reader that asks again at once (a fast socket, arrayBuffer()) would never let I/O in.
        await slice.yieldIfSpent()
        if (ended) return
        try {
          const { text, done } = nextChunk(pieces, slice)
          if (text.length > 0) controller.enqueue(utf8.encode(text))
          if (!done) return watch(controller)
          controller.close()
        } catch (error) {
          controller.error(error)
        }
        end()
      },
      cancel: end,
    },
    { highWaterMark: 0 },
  )
}

/** The next pieces, joined: about {@link CHUNK_CHARS} characters, or what a time slice allows. */
function nextChunk(pieces: Iterator<string>, slice: TimeSlice): { text: string; done: boolean } {
  const text: string[] = []
  let size = 0
  for (let piece = pieces.next(); !piece.done; piece = pieces.next()) {
    text.push(piece.value)
    size += piece.value.length
    if (size >= CHUNK_CHARS || slice.due()) return { text: text.join(''), done: false }
  }
  return { text: text.join(''), done: true }
}
