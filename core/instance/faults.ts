import { z } from 'zod'
import { OPERATION_NAMES, type OperationName } from '../../model/api/routes.js'

const Latency = z.union([
  z.number().int().min(0).max(60_000),
  z
    .object({ min: z.number().int().min(0).max(60_000), max: z.number().int().min(0).max(60_000) })
    .strict()
    .refine((range) => range.min <= range.max, 'latency.min must not exceed latency.max'),
])
const Rate = z.number().min(0).max(1).default(1)

/** What can go wrong with one operation's answers. */
const FaultSet = z
  .object({
    /** Milliseconds added before answering: fixed, or drawn from `{min, max}`. */
    latency: Latency.optional(),
    /** Answer `status` with `{"detail": <reason phrase>}` instead, on a `rate` share of requests. */
    error: z
      .object({ status: z.number().int().min(400).max(599), rate: Rate })
      .strict()
      .optional(),
    /** Close the connection without an answer, on a `rate` share of requests. */
    drop: z.object({ rate: Rate }).strict().optional(),
  })
  .strict()

/**
 * The faults configuration of `PUT /__mock/faults` for the operations of these names: a global set, and sets
 * per operation (by name) whose fields replace the global ones.
 */
// Not generic: a generic z.enum here leaves a declaration (.d.ts) that fails with skipLibCheck off (TS2344).
export const faultsConfigFor = (names: readonly [string, ...string[]]) =>
  FaultSet.extend({ operations: z.partialRecord(z.enum(names), FaultSet).optional() }).strict()

/**
 * The faults configuration for the mock's own operations (by endpoint name); a served document's operations
 * are named by `faultsConfigFor` (handlers/control/faults.ts).
 * @example { "latency": { "min": 50, "max": 200 }, "operations": { "list_policy_rules": { "error": { "status": 503, "rate": 0.1 } } } }
 */
export const FaultsConfig = faultsConfigFor(OPERATION_NAMES)

/** A faults configuration: per operation by the endpoint's name or a served operation's. */
export type FaultsConfig = z.output<typeof FaultSet> & {
  operations?: Partial<Record<OperationName | (string & {}), FaultSet>>
}
type FaultSet = z.output<typeof FaultSet>

/** What the faults decide for one request. */
export type FaultDecision = { latencyMs: number; outcome: 'answer' | 'drop' | { status: number } }

/** The faults of one mock instance. `random` is injectable so tests can pin the draws. */
export class Faults {
  #config: FaultsConfig = {}

  constructor(private readonly random: () => number = Math.random) {}

  get config(): FaultsConfig {
    return this.#config
  }

  set(config: FaultsConfig): void {
    this.#config = config
  }

  clear(): void {
    this.#config = {}
  }

  /** Draws latency and outcome for one request to `operation`. */
  decide(operation: string): FaultDecision {
    const set: FaultSet = { ...this.#config, ...this.#config.operations?.[operation] }
    const latencyMs =
      set.latency === undefined
        ? 0
        : typeof set.latency === 'number'
          ? set.latency
          : set.latency.min + Math.floor(this.random() * (set.latency.max - set.latency.min + 1))
    if (set.drop && this.random() < set.drop.rate) return { latencyMs, outcome: 'drop' }
    if (set.error && this.random() < set.error.rate) return { latencyMs, outcome: { status: set.error.status } }
    return { latencyMs, outcome: 'answer' }
  }
}
