import { from, Subscription, take, type ObservableInput } from 'rxjs';
import type { Tool } from '../tool/tool.js';
import type { FilledSlot, ParsedCall, PreparedCall } from '../turn/calls.js';
import { isImmediate, type PrepContext, type PrepStep } from './prep-step.js';

/** Where a `CallPreparer` delivers: each prepared call in slot order, then the end (or an error). */
export interface PreparedSink {
  readonly closed: boolean;
  next(call: PreparedCall): void;
  error(err: unknown): void;
  complete(): void;
}

/**
 * Prepares calls in order, one at a time: every step runs until the call is filled or decided.
 * Synchronous steps run inline; a step that returns an ObservableInput holds back the calls
 * behind it until its first value (which resumes the call at the next step) — completing
 * without a value drops the call. Shared by `prepareCalls` (calls arrive from a source) and
 * `prepareBatch` (the whole batch is in hand).
 *
 * @example
 * ```ts
 * const preparer = new CallPreparer(steps, ctx, sink);
 * preparer.add(call); // prepares it now, or after the calls ahead of it
 * preparer.end();     // the sink completes once the last call is prepared
 * ```
 */
export class CallPreparer {
  /** Calls not prepared yet, from `head` on. */
  readonly #queue: ParsedCall[];
  #head = 0;
  /** `#queue` is the caller's array (a batch): never written to. */
  readonly #borrowed: boolean;
  /** The call being prepared when it waits on a step: where to resume it. */
  #resume: PreparedCall | undefined;
  #resumeAt = 0;
  #waiting: Subscription | undefined;
  #busy = false;
  #ended = false;

  constructor(
    private readonly steps: readonly PrepStep[],
    private readonly ctx: PrepContext,
    private readonly sink: PreparedSink,
    batch?: readonly ParsedCall[],
  ) {
    this.#queue = (batch ?? []) as ParsedCall[];
    this.#borrowed = batch !== undefined;
  }

  /** Queues a call and prepares what can be prepared now (a preparer made without a batch). */
  add(call: ParsedCall): void {
    this.#queue.push(call);
    this.pump();
  }

  /** No more calls will be added: the sink completes once the queue is prepared. */
  end(): void {
    this.#ended = true;
    this.pump();
  }

  /** Stops waiting on a step; nothing more is delivered. */
  unsubscribe(): void {
    this.#waiting?.unsubscribe();
  }

  /** Prepares queued calls in order until one waits; every synchronous step runs inline. */
  pump(): void {
    if (this.#busy) return;
    this.#busy = true;
    const { sink } = this;
    const queue = this.#queue;
    try {
      while (this.#waiting === undefined && !sink.closed) {
        let draft: PreparedCall;
        let at = 0;
        if (this.#resume !== undefined) {
          draft = this.#resume;
          at = this.#resumeAt;
          this.#resume = undefined;
        } else if (this.#head < queue.length) {
          const call = queue[this.#head];
          if (!this.#borrowed) queue[this.#head] = undefined as unknown as ParsedCall; // let it go once prepared
          this.#head++;
          draft = toPrepared(call);
        } else {
          break;
        }
        const decided = this.#runSteps(draft, at);
        if (decided !== undefined) sink.next(decided);
      }
      if (this.#waiting === undefined && this.#head >= queue.length) {
        if (!this.#borrowed) {
          queue.length = 0;
          this.#head = 0;
        }
        if (this.#ended && !sink.closed) sink.complete();
      }
    } catch (err) {
      sink.error(err);
    } finally {
      this.#busy = false;
    }
  }

  /** Runs the steps from `from0` until the call is filled or decided; undefined once a step waits. */
  #runSteps(draft: PreparedCall, from0: number): PreparedCall | undefined {
    const { steps, ctx } = this;
    let current = draft;
    for (let i = from0; i < steps.length && !current.filled; i++) {
      const next = steps[i](current, ctx);
      if (next === current) continue; // the common case: the step had nothing to do
      if (isImmediate(next)) {
        current = next;
        continue;
      }
      this.#wait(next, i + 1);
      return undefined;
    }
    return current;
  }

  /** A step returned an ObservableInput: its first value resumes the call at step `at`. */
  #wait(pending: ObservableInput<PreparedCall>, at: number): void {
    let settled = false;
    this.#waiting = new Subscription(); // a placeholder while `from(pending)` may settle synchronously
    const sub = from(pending)
      .pipe(take(1))
      .subscribe({
        next: (decided) => {
          this.#resume = decided;
          this.#resumeAt = at;
        },
        error: (err: unknown) => this.sink.error(err),
        complete: () => {
          settled = true;
          this.#waiting = undefined;
          this.pump();
        },
      });
    if (!settled) this.#waiting = sub;
  }
}

/**
 * A parsed call as the first draft of its preparation. The draft belongs to the preparation it
 * is in: the built-in steps revise its tool, arguments and argument key in place (`revise`)
 * instead of copying ten fields per change; every other change, and any change to a call that
 * is not a draft, is a copy.
 *
 * @example
 * ```ts
 * const draft = toPrepared(parsed); // { call: parsed, slot, id, name, args, tool: undefined, … }
 * ```
 */
export const toPrepared = (call: ParsedCall): PreparedCall => new PreparationDraft(call);

class PreparationDraft implements PreparedCall {
  readonly call: ParsedCall;
  readonly slot: number;
  readonly id: string;
  name: string;
  args: Record<string, unknown>;
  tool: Tool | undefined = undefined;
  readonly filled: FilledSlot | undefined = undefined;
  readonly prompted: boolean | undefined = undefined;
  argsKey: string | undefined = undefined;

  constructor(call: ParsedCall) {
    this.call = call;
    this.slot = call.slot;
    this.id = call.id;
    this.name = call.name;
    this.args = call.args;
  }
}

/** The fields a built-in step may revise in place on a draft. */
type Revisable = Pick<PreparationDraft, 'tool' | 'args' | 'argsKey'>;

/**
 * `{ ...call, [field]: value }`, written in place when `call` is a draft (`toPrepared`).
 *
 * @example
 * ```ts
 * return revise(call, 'tool', tool);
 * ```
 */
export function revise<K extends keyof Revisable>(call: PreparedCall, field: K, value: Revisable[K]): PreparedCall {
  if (call instanceof PreparationDraft) {
    (call as Revisable)[field] = value;
    return call;
  }
  return { ...call, [field]: value };
}
