import fc from 'fast-check';
import { from, mergeMap, tap, type Observable, type Subscription } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';
import { createAgent, type ProviderEvent, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { ApprovalManager, backchannelApproval, type ApprovalAnswer } from '../../src/approval/index.js';
import { createTestScheduler, fakeTool, scriptedModel, type FakeTool } from '../../src/testing/index.js';
import { trackListeners } from '../../marbles/turn-harness.js';
import { historyProblems } from './history-validator.js';
import { resultsBySlot, slotProblems } from './slot-invariants.js';

/**
 * The cancellation storm: a random batch (1–12 calls of random kinds and durations, parallel or
 * sequential under a random cap, with or without approval prompts answered by a backchannel after
 * random delays) is cancelled at a random virtual time — through the turn's signal or by
 * unsubscribing — inside `TestScheduler.run`, and DESIGN.md's invariants 1–4 are checked.
 */

type Kind = 'ok' | 'error' | 'never' | 'sync' | 'throw' | 'unknown' | 'excluded';
type Answer = 'yes' | 'no' | 'always' | 'null' | 'replace' | 'never';

export interface CallSpec {
  readonly kind: Kind;
  /** Frames the tool takes (ok/error). */
  readonly delay: number;
  readonly prompt: boolean;
  readonly answer: Answer;
  readonly answerDelay: number;
}

export interface StormScenario {
  readonly calls: readonly CallSpec[];
  readonly parallel: boolean;
  readonly maxParallel: number;
  readonly responseDelay: number;
  readonly toolTimeout?: number;
  readonly approvalTimeout?: number;
  readonly cancel: { readonly mode: 'signal' | 'unsubscribe'; readonly at: number };
}

const callSpec = (approvals: boolean): fc.Arbitrary<CallSpec> =>
  fc.record({
    kind: fc.constantFrom<Kind>('ok', 'ok', 'ok', 'error', 'never', 'sync', 'throw', 'unknown', 'excluded'),
    delay: fc.integer({ min: 0, max: 20 }),
    prompt: approvals ? fc.boolean() : fc.constant(false),
    answer: fc.constantFrom<Answer>('yes', 'yes', 'no', 'always', 'null', 'replace', 'never'),
    answerDelay: fc.integer({ min: 0, max: 10 }),
  });

/** Mostly inside the batch (most turns are over by frame 25), sometimes late. */
const cancelAt = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 25 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 90 }) });

export const stormScenario: fc.Arbitrary<StormScenario> = fc.boolean().chain((approvals) =>
  fc.record({
    calls: fc.array(callSpec(approvals), { minLength: 1, maxLength: 12 }),
    parallel: fc.boolean(),
    maxParallel: fc.integer({ min: 1, max: 8 }),
    responseDelay: fc.integer({ min: 0, max: 5 }),
    toolTimeout: fc.option(fc.integer({ min: 3, max: 40 }), { nil: undefined }),
    approvalTimeout: fc.option(fc.integer({ min: 2, max: 12 }), { nil: undefined }),
    cancel: fc.record({ mode: fc.constantFrom<'signal' | 'unsubscribe'>('signal', 'signal', 'unsubscribe'), at: cancelAt }),
  }),
);

const FILLED_OUTCOMES: Record<Kind, readonly string[]> = {
  ok: [], error: [], never: [], sync: [], throw: [], unknown: ['unknown'], excluded: ['excluded'],
};
const PROMPT_FILLS = ['denied', 'replaced'];

const nameOf = (spec: CallSpec, i: number): string =>
  spec.kind === 'unknown' ? `nope${i}` : spec.kind === 'excluded' ? `x${i}` : `t${i}`;

interface Snapshot {
  readonly frame: number;
  readonly events: number;
  readonly resultSlots: ReadonlySet<number>;
  readonly doneBefore: boolean;
  readonly promptsOpen: boolean;
}

/** What a storm run saw, for coverage statistics. */
export interface StormSummary {
  readonly mode: 'signal' | 'unsubscribe';
  readonly outcomes: readonly string[];
  /** Slots whose tools were running when the turn was cancelled. */
  readonly running: number;
  readonly promptsOpen: boolean;
  readonly doneBefore: boolean;
}

/** Runs one scenario in virtual time and asserts invariants 1–4. */
export function checkStorm(s: StormScenario): StormSummary {
  const scheduler: TestScheduler = createTestScheduler(expect);
  const controller = new AbortController();
  const listeners = trackListeners(controller.signal);
  const events: TurnEvent[] = [];
  const tools: FakeTool[] = [];
  const toolSources: (ReturnType<TestScheduler['createColdObservable']> | undefined)[] = [];
  const answerSources: ReturnType<TestScheduler['createColdObservable']>[] = [];
  const startedAfterCancel: number[] = [];
  let snapshot: Snapshot | undefined;
  let cancelled = false;
  let completed = false;
  let failure: unknown;
  let pending = -1;
  let responseSource: ReturnType<TestScheduler['createColdObservable']> | undefined;

  scheduler.run(({ cold }) => {
    s.calls.forEach((spec, i) => {
      if (spec.kind === 'unknown') return;
      const wait = '-'.repeat(spec.delay);
      const source =
        spec.kind === 'ok' ? cold(`${wait}(r|)`, { r: `R${i}` })
        : spec.kind === 'error' ? cold(`${wait}#`, undefined, new Error(`E${i}`))
        : spec.kind === 'never' ? cold<string>('-')
        : undefined;
      toolSources[i] = source;
      tools.push(
        fakeTool(nameOf(spec, i), () => {
          if (cancelled) startedAfterCancel.push(i);
          if (spec.kind === 'sync') return `S${i}`;
          if (spec.kind === 'throw') throw new Error(`T${i}`);
          return source! as Observable<string>;
        }),
      );
    });
    const answers = new Map<string, Observable<ApprovalAnswer>>();
    s.calls.forEach((spec, i) => {
      if (!spec.prompt) return;
      const value: ApprovalAnswer = spec.answer === 'null' ? null : spec.answer === 'replace' ? { replaceWith: `Op${i}` } : (spec.answer as ApprovalAnswer);
      const answer = spec.answer === 'never' ? cold<ApprovalAnswer>('-') : cold(`${'-'.repeat(spec.answerDelay)}(a|)`, { a: value });
      answerSources.push(answer);
      answers.set(nameOf(spec, i), answer);
    });
    const prompted = s.calls.flatMap((spec, i) => (spec.prompt ? [nameOf(spec, i)] : []));
    const approval = new ApprovalManager(
      { autoApprove: ['*'], alwaysAsk: prompted },
      backchannelApproval((req) => answers.get(req.toolName) ?? null, s.approvalTimeout ? { timeoutMs: s.approvalTimeout } : {}),
    );
    const calls: ProviderEvent[] = s.calls.map((spec, i) => ({ type: 'tool-call', id: `c${i}`, name: nameOf(spec, i), arguments: { i } }));
    responseSource = cold(`${'-'.repeat(s.responseDelay)}(x|)`, { x: 0 });
    const response = responseSource.pipe(mergeMap(() => from<ProviderEvent[]>([...calls, { type: 'finish', reason: 'tool_calls' }])));
    const agent = createAgent({
      provider: scriptedModel([response, { text: 'final' }]),
      model: 'm',
      tools,
      approval: prompted.length > 0 ? approval : undefined,
      excludedTools: s.calls.flatMap((spec, i) => (spec.kind === 'excluded' ? [nameOf(spec, i)] : [])),
      knobs: { parallelTools: s.parallel, maxParallelTools: s.maxParallel, toolTimeoutMs: s.toolTimeout, loopDetection: { enabled: false } },
    });
    let sub: Subscription | undefined;
    sub = agent
      .run({ message: 'go', signal: controller.signal })
      .pipe(tap((e) => events.push(e)))
      .subscribe({ error: (err: unknown) => (failure = err), complete: () => (completed = true) });
    scheduler.schedule(() => {
      snapshot = {
        frame: scheduler.now(),
        events: events.length,
        resultSlots: new Set(events.flatMap((e) => (e.type === 'tool-result' ? [e.slot] : []))),
        doneBefore: events.some((e) => e.type === 'done'),
        promptsOpen: events.filter((e) => e.type === 'approval-request').length > events.filter((e) => e.type === 'approval-decision').length,
      };
      cancelled = true;
      if (s.cancel.mode === 'signal') controller.abort();
      else sub?.unsubscribe();
    }, s.cancel.at);
    scheduler.schedule(() => (pending = scheduler.actions.length), 5_000);
  });

  const snap = snapshot!;
  const where = JSON.stringify(s);
  expect(failure, where).toBeUndefined();
  // Invariant 3: no tool starts after cancellation.
  expect(startedAfterCancel, where).toEqual([]);
  // Invariant 4: nothing left behind — no timer, no listener, no open subscription.
  expect(pending, where).toBe(0);
  expect(listeners.active(), where).toBe(0);
  for (const source of [...toolSources, ...answerSources, responseSource]) {
    for (const log of source?.subscriptions ?? []) expect(log.unsubscribedFrame, where).not.toBe(Infinity);
  }
  // Tools still running when the turn was cancelled had their signals aborted.
  const callsByName = new Map(tools.map((t) => [t.name, t]));
  const runningAtCancel = (i: number): boolean => {
    const tool = callsByName.get(nameOf(s.calls[i], i));
    return tool !== undefined && tool.calls.length > 0 && !snap.resultSlots.has(i) && !snap.doneBefore;
  };

  const summary = (outcomes: string[]): StormSummary => ({
    mode: s.cancel.mode,
    outcomes,
    running: s.calls.filter((_, i) => runningAtCancel(i)).length,
    promptsOpen: snap.promptsOpen,
    doneBefore: snap.doneBefore,
  });

  if (s.cancel.mode === 'unsubscribe') {
    expect(events.length, where).toBe(snap.events);
    expect(slotProblems(events, { open: true }), where).toEqual([]);
    expect(controller.signal.aborted, where).toBe(false);
    s.calls.forEach((spec, i) => {
      if (runningAtCancel(i) && (spec.kind === 'ok' || spec.kind === 'error' || spec.kind === 'never')) {
        expect(callsByName.get(nameOf(spec, i))!.calls[0].signal.aborted, `${where} slot ${i}`).toBe(true);
      }
    });
    return summary([]);
  }

  // Invariant 1: every slot ends exactly once; the turn ends with one done event.
  expect(completed, where).toBe(true);
  expect(slotProblems(events), where).toEqual([]);
  const done = events.at(-1) as TurnEventOf<'done'>;
  expect(done.type, where).toBe('done');
  expect(events.filter((e) => e.type === 'done'), where).toHaveLength(1);
  expect(done.reason, where).toBe(snap.doneBefore ? 'final' : 'cancelled');
  // Invariant 2: history holds the results in slot order.
  expect(historyProblems(done.history), where).toEqual([]);
  const results = resultsBySlot(events);
  const contents = done.history.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
  expect(contents, where).toEqual(results.map((r) => r.output));
  if (results.length > 0) expect(results.length, where).toBe(s.calls.length);
  // Invariant 3: finished slots keep their results; unfinished ones end interrupted (or as prepared).
  results.forEach((result, i) => {
    const spec = s.calls[i];
    if (snap.doneBefore || snap.resultSlots.has(i)) {
      expect(result.outcome, `${where} slot ${i}`).not.toBe('interrupted');
      return;
    }
    expect(['interrupted', ...FILLED_OUTCOMES[spec.kind], ...(spec.prompt ? PROMPT_FILLS : [])], `${where} slot ${i}`).toContain(result.outcome);
    if (runningAtCancel(i)) {
      expect(result.outcome, `${where} slot ${i}`).toBe('interrupted');
      expect(callsByName.get(nameOf(spec, i))!.calls[0].signal.aborted, `${where} slot ${i}`).toBe(true);
    }
  });
  return summary(results.map((r) => r.outcome));
}

/** The storm as a vitest block; `numRuns` scenarios (the stress run passes 10x). */
export function describeStorm(numRuns: number, describe: (name: string, fn: () => void) => void, it: (name: string, fn: () => void, timeout?: number) => void): void {
  describe('cancellation storm: random batches cancelled at random virtual times keep invariants 1-4', () => {
    it(`${numRuns} random scenarios (signal or unsubscribe; parallel or sequential; approvals answered yes/no/always/null/replace/never)`, () => {
      fc.assert(fc.property(stormScenario, (scenario) => void checkStorm(scenario)), { numRuns });
    }, 600_000);
  });
}
