import fc from 'fast-check';
import { type Observable, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { handMadeLoop } from '../../examples/custom-loop.js';
import {
  ApprovalManager,
  backchannelApproval,
  createAgent,
  type ProviderEvent,
  type TurnEvent,
  type TurnInput,
} from '../../src/index.js';
import { runQuietLoop } from '../../src/loop/run-tool-loop.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../../src/testing/index.js';

/**
 * Proof that the loop is one loop: `agent.run` and a loop assembled by hand from
 * `rx-tool-loop/operators` (examples/custom-loop.ts) emit the same events at the same virtual
 * times and reach the same history, over random scenarios: parallel or sequential batches under
 * random caps, tools that answer, fail or hang at random times, unknown tools, duplicate calls,
 * approvals answered in every way (or not at all), and cancellation at a random virtual time.
 * The same scenarios show that a quiet turn (`agent.complete` with nobody reading events) is the
 * same turn: the events it keeps (approvals, `done`) at the same times, the same history, and the
 * same observer events (starts, ends and durations) at the same times.
 */

const TOOLS = ['t0', 't1', 't2'] as const;

const callArb = fc.record({
  name: fc.constantFrom(...TOOLS, 'missing'),
  v: fc.integer({ min: 0, max: 2 }),
});

const behaviourArb = fc.record({
  delay: fc.integer({ min: 1, max: 6 }),
  fails: fc.boolean(),
});

const answerArb = fc.record({
  delay: fc.integer({ min: 1, max: 4 }),
  answer: fc.constantFrom('yes', 'no', 'always', 'replace', 'none'),
});

const scenarioArb = fc.record({
  parallel: fc.boolean(),
  cap: fc.integer({ min: 1, max: 4 }),
  batches: fc.array(fc.array(callArb, { minLength: 1, maxLength: 4 }), { minLength: 0, maxLength: 3 }),
  behaviours: fc.array(behaviourArb, { minLength: 12, maxLength: 12 }),
  gated: fc.subarray([...TOOLS]),
  answers: fc.array(answerArb, { minLength: 12, maxLength: 12 }),
  providerDelay: fc.integer({ min: 1, max: 3 }),
  cancelAt: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
  maxIterations: fc.integer({ min: 1, max: 4 }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * Runs one scenario through `run` in virtual time; returns `frame: event` lines, of the turn's
 * events and of what its observer was told. A scenario that never cancels runs without a signal.
 */
function runScenario(scenario: Scenario, run: 'agent' | 'hand' | 'quiet'): { lines: string[]; observed: string[]; error?: string } {
  const scheduler = createTestScheduler(expect);
  const lines: string[] = [];
  const observed: string[] = [];
  let error: string | undefined;
  scheduler.run(({ cold }) => {
    let callNo = 0;
    const tools = TOOLS.map((name) =>
      fakeTool(name, () => {
        const b = scenario.behaviours[callNo++ % scenario.behaviours.length];
        return b.fails ? cold(`${b.delay}ms #`, {}, new Error(`${name} broke`)) : cold(`${b.delay}ms (r|)`, { r: `${name} ok` });
      }),
    );
    let asked = 0;
    const approval = new ApprovalManager(
      { level: 'supervised', alwaysAsk: scenario.gated, autoApprove: TOOLS.filter((t) => !scenario.gated.includes(t)) },
      backchannelApproval(() => {
        const a = scenario.answers[asked++ % scenario.answers.length];
        const value = a.answer === 'replace' ? { replaceWith: 'replaced text' } : a.answer === 'none' ? null : a.answer;
        return cold(`${a.delay}ms (v|)`, { v: value });
      }),
    );
    const responses = [
      ...scenario.batches.map((batch, b) =>
        cold<ProviderEvent>(`${scenario.providerDelay}ms (${batch.map((_, i) => String.fromCharCode(97 + i)).join('')}f|)`, {
          ...Object.fromEntries(
            batch.map((call, i) => [String.fromCharCode(97 + i), { type: 'tool-call', id: `k${b}_${i}`, name: call.name, arguments: { v: call.v } }]),
          ),
          f: { type: 'finish', reason: 'tool_calls' },
        }),
      ),
      cold<ProviderEvent>(`${scenario.providerDelay}ms (tf|)`, { t: { type: 'text-delta', text: 'final answer' }, f: { type: 'finish', reason: 'stop' } }),
      cold<ProviderEvent>(`${scenario.providerDelay}ms (tf|)`, { t: { type: 'text-delta', text: 'summary' }, f: { type: 'finish', reason: 'stop' } }),
    ];
    let ids = 0;
    const agent = createAgent({
      provider: scriptedModel(responses),
      model: 'm',
      tools,
      approval,
      ids: () => `id${++ids}`,
      observers: [(event) => observed.push(`${scheduler.now()}: ${JSON.stringify(event)}`)],
      knobs: { parallelTools: scenario.parallel, maxParallelTools: scenario.cap, maxToolIterations: scenario.maxIterations },
    });
    const controller = new AbortController();
    if (scenario.cancelAt !== undefined) cold(`${scenario.cancelAt}ms x`).subscribe(() => controller.abort());
    const input: TurnInput = scenario.cancelAt === undefined ? { message: 'go' } : { message: 'go', signal: controller.signal };
    const events$: Observable<TurnEvent> =
      run === 'agent' ? agent.run(input) : run === 'quiet' ? runQuietLoop(agent.resolved, input) : handMadeLoop(agent.resolved, input);
    events$.pipe(tap((event) => lines.push(`${scheduler.now()}: ${JSON.stringify(event)}`))).subscribe({
      error: (err: Error) => (error = `${err.name}: ${err.message}`),
    });
  });
  return { lines, observed, error };
}

describe('agent.run is the loop a user assembles from rx-tool-loop/operators', () => {
  it('emits the same events at the same virtual times and reaches the same history, over 200 random scenarios', () => {
    let cancelled = 0;
    let prompted = 0;
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const ours = runScenario(scenario, 'agent');
        const hand = runScenario(scenario, 'hand');
        expect(hand).toEqual(ours);
        expect(ours.error === undefined ? ours.lines.at(-1) : ours.error).toMatch(/"type":"done"|Error/);
        if (ours.lines.some((l) => l.includes('"reason":"cancelled"'))) cancelled++;
        if (ours.lines.some((l) => l.includes('"approval-request"'))) prompted++;
      }),
      { numRuns: 200, seed: 20261201 },
    );
    // the scenarios really exercised cancellation and approval
    expect(cancelled).toBeGreaterThan(10);
    expect(prompted).toBeGreaterThan(10);
  });
});

describe('a quiet turn (agent.complete with nobody reading events) is the same turn', () => {
  it('keeps the approval events and done at the same virtual times as agent.run, tells its observer the same, and drops only the rest, over 200 random scenarios', () => {
    // a turn with a signal also keeps its tool-call events: closeUnfinished reads them for the observer
    const kept = /"type":"(approval-request|approval-decision|done)"/;
    const keptWithSignal = /"type":"(approval-request|approval-decision|done|tool-call)"/;
    let observedCalls = 0;
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const full = runScenario(scenario, 'agent');
        const quiet = runScenario(scenario, 'quiet');
        const keeps = scenario.cancelAt === undefined ? kept : keptWithSignal;
        expect(quiet).toEqual({ ...full, lines: full.lines.filter((line) => keeps.test(line)) });
        observedCalls += full.observed.length;
      }),
      { numRuns: 200, seed: 20261202 },
    );
    expect(observedCalls).toBeGreaterThan(200); // the observer was told of calls, not of nothing
  });
});
