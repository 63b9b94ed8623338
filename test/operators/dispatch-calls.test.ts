import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SlotResult } from '../../src/index.js';
import { dispatchCalls, orderBySlot, runBatch } from '../../src/operators.js';
import { fakeTool } from '../../src/testing/index.js';
import { cards, executable, parsed, setup } from './helpers.js';

/** Three tools whose results the test releases by hand. */
function manual() {
  const gates = [new Subject<string>(), new Subject<string>(), new Subject<string>()];
  const tools = gates.map((gate, i) => fakeTool(`t${i}`, gate));
  return { gates, tools };
}

describe('dispatchCalls: results leave in completion order; orderBySlot puts them back in slot order', () => {
  it('emits in completion order on its own, in slot order behind orderBySlot', () => {
    const { gates, tools } = manual();
    const { resolved, turn } = setup({ tools, knobs: { parallelTools: true } });
    const batch = tools.map((tool, slot) => executable(slot, tool));
    const raw: number[] = [];
    const ordered: number[] = [];
    from(batch).pipe(dispatchCalls(resolved, turn)).subscribe((r) => raw.push(r.slot));
    const { resolved: resolved2, turn: turn2 } = setup({ tools, knobs: { parallelTools: true } });
    from(batch).pipe(dispatchCalls(resolved2, turn2), orderBySlot<SlotResult>()).subscribe((r) => ordered.push(r.slot));
    gates[2].next('C');
    gates[0].next('A');
    gates[1].next('B');
    expect(raw).toEqual([2, 0, 1]);
    expect(ordered).toEqual([0, 1, 2]);
  });

  it('on cancellation the finished slot keeps its result and the others close interrupted, one result each', async () => {
    const { gates, tools } = manual();
    const ac = new AbortController();
    const { resolved, turn, events } = setup({ tools, knobs: { parallelTools: true }, input: { signal: ac.signal } });
    const done = lastValueFrom(from(tools.map((tool, slot) => executable(slot, tool))).pipe(dispatchCalls(resolved, turn), toArray()));
    gates[1].next('B');
    ac.abort();
    const results = await done;
    expect(results.map((r) => [r.slot, r.outcome])).toEqual([[1, 'executed'], [0, 'interrupted'], [2, 'interrupted']]);
    expect(tools.map((t) => t.calls[0].signal.aborted)).toEqual([true, false, true]);
    expect(gates.map((g) => g.observed)).toEqual([false, false, false]);
    expect(cards(events)).toEqual(['call t0#0', 'call t1#1', 'call t2#2', 't1#1 executed', 't0#0 interrupted', 't2#2 interrupted']);
  });
});

describe('runBatch: prepares and dispatches a parsed batch, emitting the results indexed by slot', () => {
  it('one result per call, at its slot index, whatever order they finished in', async () => {
    const { gates, tools } = manual();
    const { resolved, turn } = setup({ tools, knobs: { parallelTools: true } });
    const calls = [parsed(0, 't0'), parsed(1, 'missing'), parsed(2, 't2')];
    const out = lastValueFrom(runBatch(resolved, turn, calls));
    gates[2].next('C');
    gates[0].next('A');
    const results = await out;
    expect(results.map((r) => [r.slot, r.outcome, r.content])).toEqual([
      [0, 'executed', 'A'],
      [1, 'unknown', 'Unknown tool: missing'],
      [2, 'executed', 'C'],
    ]);
  });
});
