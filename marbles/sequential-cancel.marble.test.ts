import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type TurnEvent, type TurnEventOf } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code, expectOneCardPerSlot, toolMessages, INTERRUPTED } from './turn-harness.js';

describe('sequential cancellation: after the signal aborts no tool starts, and the tail ends interrupted', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('aborting during the second of three tools tears it down, never subscribes the third, and ends the turn cancelled', () => {
    const events: TurnEvent[] = [];
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'a', arguments: {} }, { id: 'b', name: 'b', arguments: {} }, { id: 'c', name: 'c', arguments: {} }] },
      { text: 'never asked' },
    ]);
    let a!: ReturnType<typeof fakeTool>, b!: ReturnType<typeof fakeTool>, c!: ReturnType<typeof fakeTool>;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('------(r|)', { r: 'A' });
      const b$ =  cold('------(r|)', { r: 'B' });
      const c$ =  cold('------(r|)', { r: 'C' });
      const abort =    '----------x';
      const expected = '(Ia)--(Ab)(BcCz|)';
      const aSubs =    '^-----!    ';
      const bSubs =    '------^---!';
      [a, b, c] = [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$)];
      const ac = new AbortController();
      cold(abort).subscribe(() => ac.abort());
      const agent = createAgent({ provider: model, model: 'm', tools: [a, b, c] });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(
        tap((e) => events.push(e)),
        map(code),
      );
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', a: 'call a', b: 'call b', c: 'call c',
        A: 'a executed', B: 'b interrupted', C: 'c interrupted', z: 'done cancelled',
      });
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(b$.subscriptions).toBe(bSubs);
      expectSubscriptions(c$.subscriptions).toBe([]);
    });
    expect(c.calls).toEqual([]);
    expect(a.calls[0].signal.aborted).toBe(false);
    expect(b.calls[0].signal.aborted).toBe(true);
    const results = expectOneCardPerSlot(events, 3);
    expect(results.map((r) => [r.outcome, r.success, r.output])).toEqual([
      ['executed', true, 'A'],
      ['interrupted', false, INTERRUPTED],
      ['interrupted', false, INTERRUPTED],
    ]);
    const done = events.at(-1) as TurnEventOf<'done'>;
    expect(done).toMatchObject({ type: 'done', reason: 'cancelled', iterations: 1 });
    expect(toolMessages(done.history)).toEqual(['a=A', `b=${INTERRUPTED}`, `c=${INTERRUPTED}`]);
    expect(model.requests).toHaveLength(1);
  });

  it('an observer aborting when the first tool ends keeps that result and starts nothing more', () => {
    const events: TurnEvent[] = [];
    let b!: ReturnType<typeof fakeTool>;
    let done: TurnEventOf<'done'> | undefined;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('------(r|)', { r: 'A' });
      const b$ =  cold('------(r|)', { r: 'B' });
      const expected = '(Ia)--(AbBz|)';
      const aSubs =    '^-----!    ';
      b = fakeTool('b', b$);
      const ac = new AbortController();
      const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'a', arguments: {} }, { id: 'b', name: 'b', arguments: {} }] }]);
      const agent = createAgent({
        provider: model,
        model: 'm',
        tools: [fakeTool('a', a$), b],
        observers: [(e) => e.type === 'tool-call-end' && e.tool === 'a' && ac.abort()],
      });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(
        tap((e) => events.push(e)),
        tap((e) => (done = e.type === 'done' ? e : done)),
        map(code),
      );
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', a: 'call a', b: 'call b', A: 'a executed', B: 'b interrupted', z: 'done cancelled',
      });
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(b$.subscriptions).toBe([]);
    });
    expect(b.calls).toEqual([]);
    expectOneCardPerSlot(events, 2);
    expect(toolMessages(done!.history)).toEqual(['a=A', `b=${INTERRUPTED}`]);
  });

  it('an observer aborting when a tool\'s card opens closes its card interrupted without starting it', () => {
    const events: TurnEvent[] = [];
    let a!: ReturnType<typeof fakeTool>;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ = cold('------(r|)', { r: 'A' });
      a = fakeTool('a', a$);
      const ac = new AbortController();
      const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'a', arguments: {} }] }]);
      const agent = createAgent({
        provider: model,
        model: 'm',
        tools: [a],
        observers: [(e) => e.type === 'tool-call-start' && ac.abort()],
      });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(
        tap((e) => events.push(e)),
        map(code),
      );
      expectObservable(events$).toBe('(IaAz|)', { I: 'iteration 1', a: 'call a', A: 'a interrupted', z: 'done cancelled' });
      expectSubscriptions(a$.subscriptions).toBe([]);
    });
    expect(a.calls).toEqual([]);
    expectOneCardPerSlot(events, 1);
  });

  it('a signal that is already aborted ends the turn at once: no request, no tool', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const response$ = cold('--(cf|)', { c: { type: 'tool-call', id: 'a', name: 'a', arguments: {} }, f: { type: 'finish' } } as const);
      const a$ =        cold('--(r|)', { r: 'A' });
      const model = scriptedModel([response$]);
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('a', a$)] });
      const ac = new AbortController();
      ac.abort();
      expectObservable(agent.run({ message: 'go', signal: ac.signal }).pipe(map(code))).toBe('(z|)', { z: 'done cancelled' });
      expectSubscriptions(response$.subscriptions).toBe([]);
      expectSubscriptions(a$.subscriptions).toBe([]);
    });
  });
});
