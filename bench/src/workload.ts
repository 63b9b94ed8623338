import { z } from 'zod';

/**
 * `BENCH_ARGS=paths` gives every call arguments as tools name them, `{"path":"src/module-7.ts","i":7}`:
 * keys in schema order rather than sorted, and a string long enough to be scrubbed where it is shown.
 * The schema then has `path` too; every tool still reads only `i`, so it keeps the narrower type.
 */
export const pathArgs = process.env.BENCH_ARGS === 'paths';

/**
 * The shared workload: one turn in which the model asks for `n` no-op tool calls in one batch
 * (arguments `{"i": k}`, distinct per call so a dedup guard runs without firing), every call's
 * arguments are validated by the same zod schema, the no-op tool resolves 'ok' asynchronously,
 * and the model then answers with text. Every system gets the same calls, built once.
 */
export const argsSchema = (pathArgs ? z.object({ path: z.string(), i: z.number() }) : z.object({ i: z.number() })) as z.ZodObject<{ i: z.ZodNumber }>;

/** Call `k`'s raw arguments, as the model sends them (see `pathArgs`). */
export const argsText = (k: number): string => (pathArgs ? `{"path":"src/module-${k}.ts","i":${k}}` : `{"i":${k}}`);

/**
 * Heap probe for the peak-heap pass: while `on`, every `every`-th tool call samples the heap.
 * Off during timed runs (one branch per call, the same for every system).
 */
export const heapProbe = { on: false, every: 1, count: 0, peak: 0 };

/** The no-op tool body every system runs: an async function that resolves at once. */
export const noop = async (_args: { i: number }): Promise<string> => {
  if (heapProbe.on && ++heapProbe.count % heapProbe.every === 0) sampleHeap();
  return 'ok';
};

/** Records the heap in use into the probe's peak. */
export function sampleHeap(): void {
  const used = process.memoryUsage().heapUsed;
  if (used > heapProbe.peak) heapProbe.peak = used;
}

export const TOOL_NAME = 'noop';
export const TOOL_DESCRIPTION = 'Does nothing and says ok.';
export const FINAL_TEXT = 'All done.';

/** One scripted tool call, as a provider would deliver it (raw JSON arguments). */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The `n` calls of a batch, built once per size and shared by every turn and system. */
export function scriptedCalls(n: number): readonly ScriptedCall[] {
  const calls: ScriptedCall[] = new Array(n);
  for (let k = 0; k < n; k++) calls[k] = { id: `call_${k}`, name: TOOL_NAME, arguments: argsText(k) };
  return calls;
}

/**
 * The calls of every system's cancelled turn: a no-op, then two `wait` calls that end only when
 * the turn's signal aborts (the first `wait` schedules the abort).
 */
export function cancelledTurnCalls(): ScriptedCall[] {
  return [
    { id: 'c0', name: TOOL_NAME, arguments: argsText(0) },
    { id: 'c1', name: 'wait', arguments: argsText(1) },
    { id: 'c2', name: 'wait', arguments: argsText(2) },
  ];
}

/** A system under test, prepared for one batch size. */
export interface PreparedSystem {
  /** Runs one whole turn (model → n calls → model → text) and resolves when it is done. */
  turn(): Promise<void>;
}

/** A system: how to prepare it for `n` calls per turn. */
export interface System {
  readonly name: string;
  /** Short note on what is switched on, for the results table. */
  readonly note: string;
  prepare(n: number): Promise<PreparedSystem> | PreparedSystem;
  /** A turn with 3 calls that is cancelled mid-batch (memory section); absent when unsupported. */
  cancelledTurn?(): Promise<void>;
}
