import { from, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isTurnEvent, ToolTimeoutError, type PreparedCall, type SlotResult, type TurnEvent } from '../../src/index.js';
import { closeUnfinished, executeOne, toPrepared } from '../../src/operators.js';
import { createTestScheduler, fakeTool } from '../../src/testing/index.js';
import { cards, echo, eventsIn, executable, parsed, resultsIn, setup } from './helpers.js';

describe('executeOne: opens the card right before the tool starts and closes it with the result', () => {
  it('the tool-call event goes out before execute runs; the slot result, then the tool-result event, after it returns', () => {
    let valuesWhenStarted = -1;
    const out: (TurnEvent | SlotResult)[] = [];
    const tool = echo('t', () => {
      valuesWhenStarted = out.length;
      return 'done';
    });
    const { it: ctx } = setup({ tools: [tool] });
    executeOne(ctx, executable(0, tool)).subscribe((v) => out.push(v));
    expect(valuesWhenStarted).toBe(1);
    expect(out.map((v) => (isTurnEvent(v) ? v.type : 'result'))).toEqual(['tool-call', 'result', 'tool-result']);
    expect(cards(out)).toEqual(['call t#0', 't#0 executed']);
    expect(eventsIn(out)[0]).toMatchObject({ type: 'tool-call', iteration: 1, executes: true });
    expect(resultsIn(out).map((r) => [r.slot, r.outcome, r.content])).toEqual([[0, 'executed', 'done']]);
  });

  it('a filled slot opens and closes its card without running anything (executes: false)', () => {
    const { it: ctx } = setup();
    const call: PreparedCall = { ...toPrepared(parsed(0, 'nope')), filled: { outcome: 'unknown', output: 'Unknown tool: nope', success: false } };
    const out: (TurnEvent | SlotResult)[] = [];
    executeOne(ctx, call).subscribe((v) => out.push(v));
    expect(cards(out)).toEqual(['call nope#0', 'nope#0 unknown']);
    expect(eventsIn(out)[0]).toMatchObject({ type: 'tool-call', executes: false });
    expect(resultsIn(out)[0]).toMatchObject({ outcome: 'unknown', success: false, content: 'Unknown tool: nope', durationMs: 0 });
  });

  it('a slot whose card is already open (a torn-down run) closes without a second tool-call', () => {
    const pending = new Subject<string>();
    const tool = fakeTool('t', pending);
    const { it: ctx } = setup({ tools: [tool] });
    const call = executable(0, tool);
    const source = new Subject<TurnEvent | SlotResult>();
    const out: (TurnEvent | SlotResult)[] = [];
    source.pipe(closeUnfinished(ctx, [call])).subscribe((v) => out.push(v));
    const run = executeOne(ctx, call).subscribe((v) => source.next(v));
    expect(cards(out)).toEqual(['call t#0']);
    run.unsubscribe(); // torn down before the tool finished
    source.complete();
    expect(cards(out)).toEqual(['call t#0', 't#0 interrupted']);
    expect(resultsIn(out).map((r) => r.outcome)).toEqual(['interrupted']);
  });

  it('on a turn already cancelled an executable call neither starts nor opens a card', () => {
    let started = false;
    const tool = echo('t', () => ((started = true), 'x'));
    const ac = new AbortController();
    ac.abort();
    const { it: ctx } = setup({ tools: [tool], input: { signal: ac.signal } });
    let completed = false;
    const out: (TurnEvent | SlotResult)[] = [];
    executeOne(ctx, executable(0, tool)).subscribe({ next: (v) => out.push(v), complete: () => (completed = true) });
    expect([started, completed, out]).toEqual([false, true, []]);
  });

  it('closeUnfinished opens a card (executes: false) for a slot that never started, then closes it', () => {
    const tool = echo('t');
    const { it: ctx } = setup({ tools: [tool] });
    const out: (TurnEvent | SlotResult)[] = [];
    from<(TurnEvent | SlotResult)[]>([]).pipe(closeUnfinished(ctx, [executable(0, tool)])).subscribe((v) => out.push(v));
    expect(cards(out)).toEqual(['call t#0', 't#0 interrupted']);
    expect(eventsIn(out)[0]).toMatchObject({ type: 'tool-call', executes: false });
  });
});

describe("executeOne: the tool's signal aborts only when it is torn down before it finished", () => {
  it('unsubscribing while the tool runs aborts its signal and unsubscribes its Observable', () => {
    const pending = new Subject<string>();
    const tool = fakeTool('t', pending);
    const { it: ctx } = setup({ tools: [tool] });
    const sub = executeOne(ctx, executable(0, tool)).subscribe();
    expect(tool.calls[0].signal.aborted).toBe(false);
    sub.unsubscribe();
    expect(tool.calls[0].signal.aborted).toBe(true);
    expect(pending.observed).toBe(false);
  });

  it('a tool that first reads its signal after its slot closed (unsubscribe or timeout) reads it aborted', () => {
    const contexts: { signal: AbortSignal }[] = [];
    const tool = echo('t', ((_args: unknown, ctx: { signal: AbortSignal }) => (contexts.push(ctx), new Subject<string>())) as never);
    const { it: ctx } = setup({ tools: [tool] });
    executeOne(ctx, executable(0, tool)).subscribe().unsubscribe();
    expect(contexts[0].signal.aborted).toBe(true);
    const scheduler = createTestScheduler(expect);
    scheduler.run(() => {
      const { it: timed } = setup({ tools: [tool], knobs: { toolTimeoutMs: 5 } });
      executeOne(timed, executable(0, tool)).subscribe();
    });
    expect(contexts[1].signal.reason).toBeInstanceOf(ToolTimeoutError);
  });

  it('a tool that finished keeps its signal un-aborted', () => {
    const tool = fakeTool('t', 'ok');
    const { it: ctx } = setup({ tools: [tool] });
    executeOne(ctx, executable(0, tool)).subscribe().unsubscribe();
    expect(tool.calls[0].signal.aborted).toBe(false);
  });
});
