import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type TurnEvent, type TurnEventOf } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel, type FakeTool } from '../src/testing/index.js';
import { code, expectOneCardPerSlot, toolMessages, INTERRUPTED } from './turn-harness.js';

const batchOf = (...names: string[]) =>
  scriptedModel([{ toolCalls: names.map((name) => ({ id: name, name, arguments: {} })) }, { text: 'never asked' }]);

describe('parallel cancellation: finished slots keep their results, running tools are torn down, the rest end interrupted', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('aborting with one slot done, two running and one queued behind the cap', () => {
    const events: TurnEvent[] = [];
    const model = batchOf('a', 'b', 'c', 'd');
    let tools!: FakeTool[];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('------(r|)', { r: 'A' });
      const b$ =  cold('--------------(r|)', { r: 'B' });
      const c$ =  cold('------------(r|)', { r: 'C' });
      const d$ =  cold('----(r|)', { r: 'D' });
      const abort =    '----------x';
      const expected = '(Iab)-(Ac)(BCdDz|)';
      const aSubs =    '^-----!    ';
      const bSubs =    '^---------!';
      const cSubs =    '------^---!';
      tools = [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$), fakeTool('d', d$)];
      const ac = new AbortController();
      cold(abort).subscribe(() => ac.abort());
      const agent = createAgent({ provider: model, model: 'm', tools, knobs: { parallelTools: true, maxParallelTools: 2 } });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(tap((e) => events.push(e)), map(code));
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', a: 'call a', b: 'call b', c: 'call c', d: 'call d',
        A: 'a executed', B: 'b interrupted', C: 'c interrupted', D: 'd interrupted', z: 'done cancelled',
      });
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(b$.subscriptions).toBe(bSubs);
      expectSubscriptions(c$.subscriptions).toBe(cSubs);
      expectSubscriptions(d$.subscriptions).toBe([]);
    });
    const [a, b, c, d] = tools;
    expect([a, b, c].map((t) => t.calls[0].signal.aborted)).toEqual([false, true, true]);
    expect(d.calls).toEqual([]);
    const results = expectOneCardPerSlot(events, 4);
    expect(results.map((r) => [r.id, r.outcome, r.success, r.output])).toEqual([
      ['a', 'executed', true, 'A'],
      ['b', 'interrupted', false, INTERRUPTED],
      ['c', 'interrupted', false, INTERRUPTED],
      ['d', 'interrupted', false, INTERRUPTED],
    ]);
    const done = events.at(-1) as TurnEventOf<'done'>;
    expect(done.reason).toBe('cancelled');
    expect(toolMessages(done.history)).toEqual(['a=A', `b=${INTERRUPTED}`, `c=${INTERRUPTED}`, `d=${INTERRUPTED}`]);
    expect(model.requests).toHaveLength(1);
  });

  it('a slot filled by preparation keeps its own outcome when the batch is cancelled', () => {
    const events: TurnEvent[] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('--------(r|)', { r: 'A' });
      const c$ =  cold('--------(r|)', { r: 'C' });
      const abort =    '--------x';
      const expected = '(IaxXc)-(ACz|)';
      const subs =     '^-------!';
      const ac = new AbortController();
      cold(abort).subscribe(() => ac.abort());
      const agent = createAgent({
        provider: batchOf('a', 'nope', 'c'),
        model: 'm',
        tools: [fakeTool('a', a$), fakeTool('c', c$)],
        knobs: { parallelTools: true },
      });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(tap((e) => events.push(e)), map(code));
      expectObservable(events$).toBe(expected, {
        I: 'iteration 1', a: 'call a', x: 'call nope', X: 'nope unknown', c: 'call c',
        A: 'a interrupted', C: 'c interrupted', z: 'done cancelled',
      });
      expectSubscriptions(a$.subscriptions).toBe(subs);
      expectSubscriptions(c$.subscriptions).toBe(subs);
    });
    expect(expectOneCardPerSlot(events, 3).map((r) => r.outcome)).toEqual(['interrupted', 'unknown', 'interrupted']);
  });

  it('an observer aborting when the first tool ends keeps that result and tears the other down', () => {
    const events: TurnEvent[] = [];
    let b!: FakeTool;
    let done: TurnEventOf<'done'> | undefined;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('------(r|)', { r: 'A' });
      const b$ =  cold('------------(r|)', { r: 'B' });
      const expected = '(Iab)-(ABz|)';
      const aSubs =    '^-----!';
      const bSubs =    '^-----!';
      b = fakeTool('b', b$);
      const ac = new AbortController();
      const agent = createAgent({
        provider: batchOf('a', 'b'),
        model: 'm',
        tools: [fakeTool('a', a$), b],
        knobs: { parallelTools: true },
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
      expectSubscriptions(b$.subscriptions).toBe(bSubs);
    });
    expect(b.calls[0].signal.aborted).toBe(true);
    expectOneCardPerSlot(events, 2);
    expect(toolMessages(done!.history)).toEqual(['a=A', `b=${INTERRUPTED}`]);
  });
});
