import type { PreparedCall } from '../core/calls.js';
import type { IterationContext, PrepContext, ResolvedAgentExecution, TurnContext } from '../context/resolved-execution.js';

/**
 * A fresh preparation context for one batch of an iteration.
 *
 * @example
 * ```ts
 * const ctx = createPrepContext(iteration);
 * resolveTool(toPrepared(call), ctx);
 * ```
 */
export function createPrepContext(iteration: IterationContext): PrepContext {
  return new BatchPrepContext(iteration);
}

/**
 * Records in `ctx.seen` that the batch called `name` with arguments `key` (their `argsKey`);
 * false when it had that call already: a duplicate. A context from `createPrepContext` keeps
 * the record as a list until someone reads `seen` (see SeenArguments).
 *
 * @example
 * ```ts
 * if (!recordArguments(ctx, tool.name, JSON.stringify(call.args))) return { ...call, filled: { outcome: 'deduplicated', output: 'seen', success: false } };
 * ```
 */
export function recordArguments(ctx: PrepContext, name: string, key: string): boolean {
  return BatchPrepContext.record(ctx, name, key);
}

/** A class whose collections are made on first use: most batches need one of the four, or none. */
class BatchPrepContext implements PrepContext {
  readonly resolved: ResolvedAgentExecution;
  readonly turn: TurnContext;
  #seen: SeenArguments | undefined = undefined;
  #promptedInBatch: Set<string> | undefined = undefined;
  #promptSignatureBySlot: Map<number, string> | undefined = undefined;
  #approved: Set<number> | undefined = undefined;

  constructor(readonly iteration: IterationContext) {
    this.resolved = iteration.resolved;
    this.turn = iteration.turn;
  }

  get seen(): Map<string, Set<string>> {
    return (this.#seen ??= new SeenArguments()).asMap();
  }

  /** See `recordArguments`. */
  static record(ctx: PrepContext, name: string, key: string): boolean {
    if (!(ctx instanceof BatchPrepContext)) return addTo(ctx.seen, name, key);
    return (ctx.#seen ??= new SeenArguments()).add(name, key);
  }

  get promptedInBatch(): Set<string> {
    return (this.#promptedInBatch ??= new Set());
  }

  get promptSignatureBySlot(): Map<number, string> {
    return (this.#promptSignatureBySlot ??= new Map());
  }

  get approved(): Set<number> {
    return (this.#approved ??= new Set());
  }
}

/** How many calls the list holds before it becomes a Map of Sets. */
const MAX_LISTED = 16;

/**
 * The dedup guard's record of one batch: which arguments (`argsKey`) each tool was called with.
 * A batch holds a few calls, so the record is one array of (tool name, arguments) pairs, searched
 * in order, until it holds `MAX_LISTED` calls; for so few, a Map of Sets costs more
 * (bench/RESULTS.md, "Choices in src/ made for speed"). `PrepContext.seen` shows the record as a
 * Map of Sets; from then on the record is that Map, which a step may change.
 *
 * @example
 * ```ts
 * const seen = new SeenArguments();
 * seen.add('read', '{"path":"a"}'); // true
 * seen.add('read', '{"path":"a"}'); // false: a duplicate
 * ```
 */
class SeenArguments {
  /** Tool name and arguments, in turn, of each call recorded. */
  private pairs: string[] | undefined = undefined;
  private map: Map<string, Set<string>> | undefined = undefined;

  /** Records a call of `name` with `key` (its `argsKey`); false when this batch has had that call already. */
  add(name: string, key: string): boolean {
    if (this.map !== undefined) return addTo(this.map, name, key);
    const pairs = (this.pairs ??= []);
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i + 1] === key && pairs[i] === name) return false;
    if (pairs.length === 2 * MAX_LISTED) return addTo(this.asMap(), name, key);
    pairs.push(name, key);
    return true;
  }

  /** The record as a Map from tool name to the arguments seen (the record from then on). */
  asMap(): Map<string, Set<string>> {
    if (this.map === undefined) {
      const map = new Map<string, Set<string>>();
      const pairs = this.pairs ?? [];
      for (let i = 0; i < pairs.length; i += 2) addTo(map, pairs[i], pairs[i + 1]);
      this.map = map;
      this.pairs = undefined;
    }
    return this.map;
  }
}

/** Adds `key` to `name`'s set; false when it was there. */
function addTo(map: Map<string, Set<string>>, name: string, key: string): boolean {
  let keys = map.get(name);
  if (keys === undefined) map.set(name, (keys = new Set()));
  const size = keys.size;
  keys.add(key); // one hash lookup: the set did not grow when the key was there already
  return keys.size !== size;
}
