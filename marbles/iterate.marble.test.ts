import { EMPTY, expand, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ProviderEvent, SlotResult, TurnEvent, TurnSnapshot } from '../src/index.js';
import { collectRound, endTurn, isIterationStep, iterate, type IterationStep } from '../src/operators.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { finish, text, toolCall } from './turn-harness.js';
import { codes, stage } from './operator-harness.js';

describe('iterate takes a turn from one snapshot to the next: events on the way, then one step', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('a response with calls runs them and ends with a next step whose snapshot holds the round', () => {
    let step: IterationStep | undefined;
    scheduler.run(({ cold, expectObservable }) => {
      const response$ = cold<ProviderEvent>('--(cf|)', { c: toolCall('a', { v: 1 }, 'k1'), f: finish });
      const tool$ = cold('---(r|)', { r: 'A' });
      const { turn, snapshot } = stage({ provider: scriptedModel([response$]), tools: [fakeTool('a', tool$)] });
      const out$ = iterate(turn, snapshot).pipe(tap((v) => (step = isIterationStep(v) ? v : step)));
      expectObservable(codes(out$)).toBe('i-c--(en|)', { i: 'iteration 1', c: 'call a', e: 'a executed', n: 'next' });
    });
    const next = step as Extract<IterationStep, { kind: 'next' }>;
    expect(next.snapshot.iteration).toBe(1);
    expect(next.snapshot.history).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'k1', type: 'function', function: { name: 'a', arguments: '{"v":1}' } }] },
      { role: 'tool', tool_call_id: 'k1', content: 'A' },
    ]);
  });

  it('an answer without calls is a done step; the snapshot it started from is left as it was', () => {
    let step: IterationStep | undefined;
    let start!: TurnSnapshot;
    scheduler.run(({ cold, expectObservable }) => {
      const response$ = cold<ProviderEvent>('-a-(bf|)', { a: text('hel'), b: text('lo'), f: finish });
      const { turn, snapshot } = stage({ provider: scriptedModel([response$]) });
      start = snapshot;
      const out$ = iterate(turn, snapshot).pipe(tap((v) => (step = isIterationStep(v) ? v : step)));
      expectObservable(codes(out$)).toBe('ia-(bd|)', { i: 'iteration 1', a: 'text hel', b: 'text lo', d: 'done' });
    });
    expect(step).toMatchObject({ kind: 'done', text: 'hello', reason: 'final' });
    expect(step!.snapshot.history.at(-1)).toEqual({ role: 'assistant', content: 'hello' });
    expect(start.history).toEqual([{ role: 'user', content: 'go' }]);
    expect(start.iteration).toBe(0);
  });

  it('driven by expand and ended by endTurn, iterations follow one another to the done event', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const first$ = cold<ProviderEvent>('-(cf|)', { c: toolCall('a', {}, 'k1'), f: finish });
      const second$ = cold<ProviderEvent>('5ms (tf|)', { t: text('ok'), f: finish });
      const { turn, snapshot } = stage({ provider: scriptedModel([first$, second$]), tools: [fakeTool('a', cold('-(r|)', { r: 'A' }))] });
      const turn$ = iterate(turn, snapshot).pipe(
        expand((v) => (isIterationStep(v) && v.kind === 'next' ? iterate(turn, v.snapshot) : EMPTY)),
        endTurn(),
      );
      expectObservable(codes(turn$)).toBe('ic(eJ) 1ms (tD|)', { i: 'iteration 1', c: 'call a', e: 'a executed', J: 'iteration 2', t: 'text ok', D: 'done final' });
    });
  });

  it('collectRound passes events and emits the slot results with the receipts in completion order', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const result = (slot: number): SlotResult => ({ slot, id: `c${slot}`, name: 'a', args: {}, outcome: 'executed', success: true, content: 'x', output: 'x', durationMs: 0 });
      const event = (slot: number, receipt: string): TurnEvent => ({ type: 'tool-result', iteration: 1, slot, id: `c${slot}`, name: 'a', output: 'x', success: true, outcome: 'executed', durationMs: 0, receipt });
      const source = cold<TurnEvent | SlotResult>('-aAbB|', { a: result(0), A: event(1, 'r1'), b: result(1), B: event(0, 'r0') });
      expectObservable(codes(source.pipe(collectRound()))).toBe('--A-B(r|)', {
        A: 'a executed',
        B: 'a executed',
        r: JSON.stringify({ results: [result(0), result(1)], receipts: ['r1', 'r0'] }),
      });
    });
  });

  it('collectRound puts each result at its slot, whatever order the results finished in (results re-ordered by slot into history)', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const result = (slot: number): SlotResult => ({ slot, id: `c${slot}`, name: 'a', args: {}, outcome: 'executed', success: true, content: `x${slot}`, output: 'x', durationMs: 0 });
      const late = cold<TurnEvent | SlotResult>('-c-a-b|', { a: result(0), b: result(1), c: result(2) });
      expectObservable(late.pipe(collectRound())).toBe('------(r|)', { r: { results: [result(0), result(1), result(2)], receipts: [] } });
      const gap = cold<TurnEvent | SlotResult>('-c-a|', { a: result(0), c: result(2) });
      expectObservable(gap.pipe(collectRound())).toBe('----(r|)', { r: { results: [result(0), result(2)], receipts: [] } });
    });
  });
});
