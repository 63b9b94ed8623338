import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isTurnEvent, type SlotResult, type TurnEvent } from '../../src/index.js';
import { collectRound, dispatchCalls, orderBySlot, prepareCalls, type RoundResults } from '../../src/operators.js';
import { fakeTool } from '../../src/testing/index.js';
import { cards, executable, parsed, resultsIn, setup } from './helpers.js';

/** Three tools whose results the test releases by hand. */
function manual() {
  const gates = [new Subject<string>(), new Subject<string>(), new Subject<string>()];
  const tools = gates.map((gate, i) => fakeTool(`t${i}`, gate));
  return { gates, tools };
}

const slotOf = (v: TurnEvent | SlotResult): number[] => (isTurnEvent(v) ? [] : [v.slot]);

describe('dispatchCalls: results leave in completion order; orderBySlot puts them back in slot order', () => {
  it('emits in completion order on its own, in slot order behind orderBySlot', () => {
    const { gates, tools } = manual();
    const { it: ctx } = setup({ tools, knobs: { parallelTools: true } });
    const batch = tools.map((tool, slot) => executable(slot, tool));
    const raw: number[] = [];
    const ordered: number[] = [];
    from(batch).pipe(dispatchCalls(ctx)).subscribe((v) => raw.push(...slotOf(v)));
    const { it: ctx2 } = setup({ tools, knobs: { parallelTools: true } });
    from(batch).pipe(dispatchCalls(ctx2), orderBySlot()).subscribe((v) => ordered.push(...slotOf(v)));
    gates[2].next('C');
    gates[0].next('A');
    gates[1].next('B');
    expect(raw).toEqual([2, 0, 1]);
    expect(ordered).toEqual([0, 1, 2]);
  });

  it('orderBySlot lets the events through as they come, holding back only the results', () => {
    const { gates, tools } = manual();
    const { it: ctx } = setup({ tools, knobs: { parallelTools: true } });
    const out: (TurnEvent | SlotResult)[] = [];
    from(tools.map((tool, slot) => executable(slot, tool))).pipe(dispatchCalls(ctx), orderBySlot()).subscribe((v) => out.push(v));
    gates[2].next('C');
    expect(cards(out)).toEqual(['call t0#0', 'call t1#1', 'call t2#2', 't2#2 executed']);
    expect(resultsIn(out)).toEqual([]);
    gates[0].next('A');
    expect(resultsIn(out).map((r) => r.slot)).toEqual([0]);
  });

  it('on cancellation the finished slot keeps its result and the others close interrupted, one result each', async () => {
    const { gates, tools } = manual();
    const ac = new AbortController();
    const { it: ctx } = setup({ tools, knobs: { parallelTools: true }, input: { signal: ac.signal } });
    const done = lastValueFrom(from(tools.map((tool, slot) => executable(slot, tool))).pipe(dispatchCalls(ctx), toArray()));
    gates[1].next('B');
    ac.abort();
    const values = await done;
    expect(resultsIn(values).map((r) => [r.slot, r.outcome])).toEqual([[1, 'executed'], [0, 'interrupted'], [2, 'interrupted']]);
    expect(tools.map((t) => t.calls[0].signal.aborted)).toEqual([true, false, true]);
    expect(gates.map((g) => g.observed)).toEqual([false, false, false]);
    expect(cards(values)).toEqual(['call t0#0', 'call t1#1', 'call t2#2', 't1#1 executed', 't0#0 interrupted', 't2#2 interrupted']);
  });

  it('a slot of the batch that never came out of preparation closes interrupted without running', async () => {
    const tool = fakeTool('t0', 'ran');
    const { it: ctx } = setup({ tools: [tool] });
    const calls = [parsed(0, 't0'), parsed(1, 't0')];
    const values = await lastValueFrom(from([executable(0, tool)]).pipe(dispatchCalls(ctx, calls), toArray()));
    expect(resultsIn(values).map((r) => [r.slot, r.outcome])).toEqual([[0, 'executed'], [1, 'interrupted']]);
    expect(tool.calls).toHaveLength(1);
    expect(values.filter(isTurnEvent).filter((e) => e.type === 'tool-call').map((e) => e.type === 'tool-call' && [e.slot, e.executes])).toEqual([
      [0, true],
      [1, false],
    ]);
  });
});

describe('prepareCalls → dispatchCalls → orderBySlot → collectRound: a parsed batch becomes its round, indexed by slot', () => {
  it('one result per call, at its slot index, whatever order they finished in', async () => {
    const { gates, tools } = manual();
    const { it: ctx } = setup({ tools, knobs: { parallelTools: true } });
    const calls = [parsed(0, 't0'), parsed(1, 'missing'), parsed(2, 't2')];
    const out = lastValueFrom(from(calls).pipe(prepareCalls(ctx), dispatchCalls(ctx, calls), orderBySlot(), collectRound(), toArray()));
    gates[2].next('C');
    gates[0].next('A');
    const values = await out;
    const rounds = resultsIn<RoundResults>(values);
    expect(rounds).toHaveLength(1);
    expect(values.at(-1)).toBe(rounds[0]);
    expect(rounds[0].results.map((r) => [r.slot, r.outcome, r.content])).toEqual([
      [0, 'executed', 'A'],
      [1, 'unknown', 'Unknown tool: missing'],
      [2, 'executed', 'C'],
    ]);
    expect(cards(values)).toEqual(['call t0#0', 'call missing#1', 'missing#1 unknown', 'call t2#2', 't2#2 executed', 't0#0 executed']);
  });
});
