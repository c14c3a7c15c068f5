/** What one request event says: the request as the handlers got it, and an id shared by its events. */
interface RequestEvent {
  request: Request
  requestId: string
}

/**
 * The events the fixture's network reports, named and shaped as msw's life-cycle events (the map is msw 2's
 * `LifeCycleEventsMap`, which msw 3 no longer exports). `response:bypass` is never reported: a request passed
 * on is answered in the browser, out of the test process's sight.
 */
export interface NetworkEventsMap {
  /** A request reached the handlers (asset requests never do). */
  'request:start': [args: RequestEvent]
  /** A handler answered it. */
  'request:match': [args: RequestEvent]
  /** No handler answered it (none matched, or those that did returned nothing): it goes on to the network. */
  'request:unhandled': [args: RequestEvent]
  /** The handlers are done with it: answered, passed through or unhandled. */
  'request:end': [args: RequestEvent]
  /** The answer is about to reach the page. */
  'response:mocked': [args: RequestEvent & { response: Response }]
  'response:bypass': [args: RequestEvent & { response: Response }]
  /** A handler threw: the page gets a network error, and Playwright fails the test with the error. */
  unhandledException: [args: RequestEvent & { error: Error }]
}

type Listener<Event extends keyof NetworkEventsMap> = (...args: NetworkEventsMap[Event]) => void

/** Listening to the network's events, as on msw's `server.events`. */
export interface NetworkEvents {
  on<Event extends keyof NetworkEventsMap>(event: Event, listener: Listener<Event>): this
  removeListener<Event extends keyof NetworkEventsMap>(event: Event, listener: Listener<Event>): this
  removeAllListeners(event?: keyof NetworkEventsMap): this
}

/** The network's events, with `emit` for the network itself. */
export class NetworkEmitter implements NetworkEvents {
  readonly #listeners = new Map<keyof NetworkEventsMap, Set<(args: never) => void>>()

  on<Event extends keyof NetworkEventsMap>(event: Event, listener: Listener<Event>): this {
    const listeners = this.#listeners.get(event) ?? new Set()
    this.#listeners.set(event, listeners.add(listener))
    return this
  }

  removeListener<Event extends keyof NetworkEventsMap>(event: Event, listener: Listener<Event>): this {
    this.#listeners.get(event)?.delete(listener)
    return this
  }

  removeAllListeners(event?: keyof NetworkEventsMap): this {
    if (event) this.#listeners.delete(event)
    else this.#listeners.clear()
    return this
  }

  /** Whether anyone listens to the event (so the network builds what it reports only then). */
  listens(event: keyof NetworkEventsMap): boolean {
    return (this.#listeners.get(event)?.size ?? 0) > 0
  }

  emit<Event extends keyof NetworkEventsMap>(event: Event, ...args: NetworkEventsMap[Event]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) (listener as Listener<Event>)(...args)
  }
}
