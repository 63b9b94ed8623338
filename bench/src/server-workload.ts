/**
 * The server regime's workload (see server.ts): one turn is 3 iterations of 3 tool calls, then a
 * final answer (4 model requests). The model answers after a 2 ms timer; each tool after `i % 2`
 * ms (0: the next turn of the event loop, `setImmediate`; 1: a 1 ms `setTimeout`). Every system
 * reports to an `IterationClock` when the model answers and when its tools start and end, so the
 * time the loop itself adds to an iteration can be told apart from the waits.
 */
import { argsText } from './workload.js';

export const MODEL_MS = 2;
export const ITERATIONS = 3;
export const CALLS_PER_ITERATION = 3;
export const CALLS_PER_TURN = ITERATIONS * CALLS_PER_ITERATION;
export const SERVER_FINAL = 'All done.';

/** The calls of iteration `k` (0-based): ids and arguments distinct over the turn. */
export function serverCalls(k: number): { id: string; name: string; arguments: string }[] {
  const calls = [];
  for (let j = 0; j < CALLS_PER_ITERATION; j++) {
    const i = k * CALLS_PER_ITERATION + j;
    calls.push({ id: `call_${i}`, name: 'noop', arguments: argsText(i) });
  }
  return calls;
}

/** Resolves after `ms` (0: `setImmediate`, else `setTimeout`). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => (ms <= 0 ? setImmediate(resolve) : setTimeout(resolve, ms)));
}

/** The tool's latency for arguments `{ i }`: 0 or 1 ms. */
export const toolMs = (i: number): number => i % 2;

/** Samples of "time the loop adds per iteration", in ms, across every conversation of a run. */
export class Samples {
  values = new Float64Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
  /** The q-quantile (0..1) of what was pushed. */
  quantile(q: number): number {
    if (this.length === 0) return NaN;
    const sorted = this.values.slice(0, this.length).sort();
    return sorted[Math.min(this.length - 1, Math.floor(q * this.length))];
  }
}

/**
 * One conversation's iteration clock. The time a loop adds to an iteration is what is left once
 * the waits are taken out: from the model's answer to the start of the iteration's last tool,
 * plus from the end of its last tool to the next model request (or the turn's end). For the final
 * answer: from the answer to the turn's end. It includes the time the event loop spent on other
 * conversations in between — that is what a server's user sees.
 */
export class IterationClock {
  #answered = -1;
  #lastStart = 0;
  #lastEnd = 0;
  #tools = false;
  constructor(private readonly samples: Samples) {}
  /** A model request leaves: the previous iteration (if any) ends here. */
  requested(): void {
    if (this.#answered >= 0) this.#close(performance.now());
  }
  answered(): void {
    this.#answered = performance.now();
    this.#tools = false;
  }
  toolStarted(): void {
    this.#lastStart = performance.now();
    this.#tools = true;
  }
  toolEnded(): void {
    const t = performance.now();
    if (t > this.#lastEnd) this.#lastEnd = t;
  }
  /** The turn resolved. */
  turnEnded(): void {
    if (this.#answered >= 0) this.#close(performance.now());
    this.#answered = -1;
    this.#lastEnd = 0;
  }
  #close(now: number): void {
    this.samples.push(this.#tools ? this.#lastStart - this.#answered + (now - this.#lastEnd) : now - this.#answered);
    this.#answered = -1;
    this.#lastEnd = 0;
  }
}

/** A tool body with the regime's latency, reporting to a conversation's clock. */
export async function timedTool(i: number, clock: IterationClock | undefined): Promise<string> {
  clock?.toolStarted();
  await sleep(toolMs(i));
  clock?.toolEnded();
  return 'ok';
}

/** A system in the server regime: a conversation runs turns one after another. */
export interface ServerSystem {
  readonly name: string;
  readonly note: string;
  /** Sets up what is defined once per process (tools); returns a conversation factory. */
  prepare(): Promise<ServerPrepared> | ServerPrepared;
}

export interface ServerPrepared {
  conversation(id: string, clock: IterationClock): { turn(): Promise<void> };
}

/**
 * C conversations of one prepared system, for the scripts that run one system alone
 * (profile-server.ts): `runFor(ms)` has every conversation run
 * turns one after another until `ms` have passed (the turns under way then finish) and returns
 * how many turns ended.
 *
 * @example
 * ```ts
 * const conversations = conversationsAtOnce(await system.prepare(), 100, new Samples());
 * await conversations.runFor(1000); // warm-up
 * const turns = await conversations.runFor(5000);
 * ```
 */
export function conversationsAtOnce(prepared: ServerPrepared, c: number, samples: Samples): { runFor(ms: number): Promise<number> } {
  const conversations = Array.from({ length: c }, (_, k) => prepared.conversation(`conversation-${k}`, new IterationClock(samples)));
  return {
    async runFor(ms) {
      let stop = false;
      let turns = 0;
      setTimeout(() => (stop = true), ms);
      await Promise.all(
        conversations.map(async (conversation) => {
          while (!stop) {
            await conversation.turn();
            turns++;
          }
        }),
      );
      return turns;
    },
  };
}
