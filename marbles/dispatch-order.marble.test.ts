import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type TurnEvent, type TurnEventOf } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code, toolMessages } from './turn-harness.js';

describe('tool-result events leave in completion order while history is in slot order', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('parallel tools close in the order they finish; the round is appended in slot order', () => {
    let done: TurnEventOf<'done'> | undefined;
    const events: TurnEvent[] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('---------(r|)', { r: 'A' });
      const b$ =  cold('------(r|)   ', { r: 'B' });
      const c$ =  cold('-------(r|)  ', { r: 'C' });
      const expected = '(Iabc)BC-(AJtz|)';
      const model = scriptedModel([
        { toolCalls: [{ id: 'a', name: 'a', arguments: {} }, { id: 'b', name: 'b', arguments: {} }, { id: 'c', name: 'c', arguments: {} }] },
        { text: 'ok' },
      ]);
      const agent = createAgent({
        provider: model,
        model: 'm',
        tools: [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$)],
        knobs: { parallelTools: true },
      });
      const events$ = agent.run({ message: 'go' }).pipe(
        tap((e) => events.push(e)),
        tap((e) => (done = e.type === 'done' ? e : done)),
        map(code),
      );
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', a: 'call a', b: 'call b', c: 'call c',
        B: 'b executed', C: 'c executed', A: 'a executed',
        J: 'iteration 2', t: 'text ok', z: 'done final',
      });
      expectSubscriptions(a$.subscriptions).toBe('^--------!');
      expectSubscriptions(b$.subscriptions).toBe('^-----!   ');
      expectSubscriptions(c$.subscriptions).toBe('^------!  ');
    });
    const results = events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');
    expect(results.map((r) => [r.slot, r.durationMs])).toEqual([[1, 6], [2, 7], [0, 9]]);
    expect(toolMessages(done!.history)).toEqual(['a=A', 'b=B', 'c=C']);
    expect(done!.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
  });

  it('a slot filled by preparation closes before running tools finish, yet keeps its place in history', () => {
    let done: TurnEventOf<'done'> | undefined;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('------------(r|)', { r: 'A' });
      const c$ =  cold('---------(r|)   ', { r: 'C' });
      const expected = '(IaxXc)--C--(AJtz|)';
      const model = scriptedModel([
        { toolCalls: [{ id: 'a', name: 'a', arguments: {} }, { id: 'x', name: 'nope', arguments: {} }, { id: 'c', name: 'c', arguments: {} }] },
        { text: 'ok' },
      ]);
      const agent = createAgent({
        provider: model,
        model: 'm',
        tools: [fakeTool('a', a$), fakeTool('c', c$)],
        knobs: { parallelTools: true },
      });
      const events$ = agent.run({ message: 'go' }).pipe(
        tap((e) => (done = e.type === 'done' ? e : done)),
        map(code),
      );
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', a: 'call a', x: 'call nope', X: 'nope unknown', c: 'call c',
        C: 'c executed', A: 'a executed', J: 'iteration 2', t: 'text ok', z: 'done final',
      });
      expectSubscriptions(a$.subscriptions).toBe('^-----------!');
      expectSubscriptions(c$.subscriptions).toBe('^--------!   ');
    });
    expect(toolMessages(done!.history)).toEqual(['a=A', 'x=Unknown tool: nope', 'c=C']);
  });

  it('sequential tools close in slot order, each starting when the previous one ends', () => {
    let done: TurnEventOf<'done'> | undefined;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('-----(r|)', { r: 'A' });
      const b$ =  cold('----(r|)', { r: 'B' });
      const expected = '(Ia)-(Ab)(BJtz|)';
      const model = scriptedModel([
        { toolCalls: [{ id: 'a', name: 'a', arguments: {} }, { id: 'b', name: 'b', arguments: {} }] },
        { text: 'ok' },
      ]);
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('a', a$), fakeTool('b', b$)] });
      const events$ = agent.run({ message: 'go' }).pipe(
        tap((e) => (done = e.type === 'done' ? e : done)),
        map(code),
      );
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', a: 'call a', b: 'call b', A: 'a executed', B: 'b executed',
        J: 'iteration 2', t: 'text ok', z: 'done final',
      });
      expectSubscriptions(a$.subscriptions).toBe('^----!    ');
      expectSubscriptions(b$.subscriptions).toBe('-----^---!');
    });
    expect(toolMessages(done!.history)).toEqual(['a=A', 'b=B']);
  });
});
