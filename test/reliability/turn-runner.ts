import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Agent, ChatMessage, TurnEvent, TurnEventOf, TurnInput } from '../../src/index.js';
import { historyProblems } from './history-validator.js';
import { slotProblems } from './slot-invariants.js';

/** A finished turn: every event, its `done` event, or the error it failed with. */
export interface TurnRun {
  readonly events: TurnEvent[];
  readonly done?: TurnEventOf<'done'>;
  readonly error?: unknown;
}

/** Runs a turn to its end; a failed turn is returned with its error, not thrown. */
export async function runTurn(agent: Agent, input: TurnInput | string = 'go'): Promise<TurnRun> {
  const events: TurnEvent[] = [];
  try {
    await lastValueFrom(agent.run(typeof input === 'string' ? { message: input } : input).pipe(tap((e) => events.push(e)), toArray()));
  } catch (error) {
    return { events, error };
  }
  const done = events.at(-1);
  return { events, done: done?.type === 'done' ? done : undefined };
}

/**
 * Asserts what must hold after any turn, however it ended: invariant 1 for every slot (exactly
 * one tool-call, then exactly one tool-result with its id), at most one `done` and only as the
 * last event, and a history that a provider accepts — the returned one and every request the
 * model was sent (`requests`).
 */
export function expectHealthyTurn(
  run: TurnRun,
  requests: readonly { readonly messages: readonly ChatMessage[] }[] = [],
  textTools?: readonly string[],
): void {
  expect(slotProblems(run.events)).toEqual([]);
  const dones = run.events.filter((e) => e.type === 'done');
  expect(dones.length).toBe(run.error === undefined ? 1 : 0);
  if (run.done) {
    expect(run.events.at(-1)).toBe(run.done);
    expect(historyProblems(run.done.history, { textTools })).toEqual([]);
  }
  requests.forEach((req, n) => expect({ request: n, problems: historyProblems(req.messages, { textTools }) }).toEqual({ request: n, problems: [] }));
}

/** `[slot, name, outcome, success, output]` of each tool-result of an iteration, in slot order. */
export const slotSummary = (events: readonly TurnEvent[], iteration = 1) =>
  events
    .filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result' && e.iteration === iteration)
    .sort((a, b) => a.slot - b.slot)
    .map((r) => [r.slot, r.name, r.outcome, r.success, r.output] as const);

/** The `role: tool` contents of a history, in order. */
export const toolContents = (history: readonly ChatMessage[]): string[] => history.flatMap((m) => (m.role === 'tool' ? [m.content] : []));

/** A logger that records warnings (and never throws). */
export function recordingLogger() {
  const warnings: { obj: object; msg?: string }[] = [];
  const noop = () => {};
  return { warnings, debug: noop, info: noop, error: noop, warn: (obj: object, msg?: string) => void warnings.push({ obj, msg }) };
}

/**
 * Records every `uncaughtException` and `unhandledRejection` the process reports until `stop()`.
 *
 * @example
 * const watch = recordProcessFaults();
 * try { await work(); await pastRejectionReports(); } finally { watch.stop(); }
 * expect(watch.faults).toEqual([]);
 */
export function recordProcessFaults(): { readonly faults: unknown[]; stop(): void } {
  const faults: unknown[] = [];
  const record = (err: unknown) => void faults.push(err);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  return {
    faults,
    stop: () => {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    },
  };
}

/**
 * Resolves once Node has reported every rejection left unhandled so far. Node emits
 * `unhandledRejection` when the microtask queue has drained, before the event loop moves on
 * (Node's docs, process event 'unhandledRejection'); a `setImmediate` callback runs after that
 * point. Two of them also cover a rejection made in a microtask of the first turn.
 */
export async function pastRejectionReports(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Fails each test of the calling file in which an `uncaughtException` or an `unhandledRejection`
 * fires (BEHAVIOUR.md, Robustness): listens from `beforeEach`, and in `afterEach` waits until
 * Node has reported what was left unhandled (`pastRejectionReports`).
 */
export function failOnProcessFaults(): void {
  let watch: ReturnType<typeof recordProcessFaults> | undefined;
  beforeEach(() => {
    watch = recordProcessFaults();
  });
  afterEach(async () => {
    await pastRejectionReports();
    watch?.stop();
    // their types, not the values: a revoked Proxy cannot be printed
    expect(watch?.faults.map((f) => typeof f)).toEqual([]);
  });
}
