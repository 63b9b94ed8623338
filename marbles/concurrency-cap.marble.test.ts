import { map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code, maxOverlap, type SubscriptionFrames } from './turn-harness.js';

/** One batch calling `names` in order (ids = names), then a final answer. */
const batchOf = (...names: string[]) =>
  scriptedModel([{ toolCalls: names.map((name) => ({ id: name, name, arguments: {} })) }, { text: 'ok' }]);

const values = {
  I: 'iteration 1', a: 'call a', b: 'call b', c: 'call c', d: 'call d',
  A: 'a executed', B: 'b executed', C: 'c executed', D: 'd executed',
  J: 'iteration 2', t: 'text ok', z: 'done final',
};

describe('parallel dispatch never runs more than maxParallelTools tools at once', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('with a cap of 2, a queued tool starts only when a running one finishes', () => {
    const logs: SubscriptionFrames[][] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ = cold('--------(r|)', { r: 'A' });
      const b$ = cold('------------(r|)', { r: 'B' });
      const c$ = cold('--------(r|)', { r: 'C' });
      const d$ = cold('------(r|)', { r: 'D' });
      const events =  '(Iab)---(Ac)(Bd)C-(DJtz|)';
      const aSubs =   '^-------!                ';
      const bSubs =   '^-----------!            ';
      const cSubs =   '--------^-------!        ';
      const dSubs =   '------------^-----!      ';
      const agent = createAgent({
        provider: batchOf('a', 'b', 'c', 'd'),
        model: 'm',
        tools: [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$), fakeTool('d', d$)],
        knobs: { parallelTools: true, maxParallelTools: 2 },
      });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe(events, values);
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(b$.subscriptions).toBe(bSubs);
      expectSubscriptions(c$.subscriptions).toBe(cSubs);
      expectSubscriptions(d$.subscriptions).toBe(dSubs);
      logs.push(a$.subscriptions, b$.subscriptions, c$.subscriptions, d$.subscriptions);
    });
    expect(maxOverlap(logs.flat())).toBe(2);
  });

  it('with a cap of 3, three tools start together and the fourth starts the moment the first one ends', () => {
    const logs: SubscriptionFrames[][] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const tool$ = (r: string) => cold('----------(r|)', { r });
      const [a$, b$, c$, d$] = [tool$('A'), tool$('B'), tool$('C'), tool$('D')];
      const events =  '(Iabc)----(AdBC)----(DJtz|)';
      const abcSubs = '^---------!                ';
      const dSubs =   '----------^---------!      ';
      const agent = createAgent({
        provider: batchOf('a', 'b', 'c', 'd'),
        model: 'm',
        tools: [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$), fakeTool('d', d$)],
        knobs: { parallelTools: true, maxParallelTools: 3 },
      });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe(events, values);
      expectSubscriptions(a$.subscriptions).toBe(abcSubs);
      expectSubscriptions(b$.subscriptions).toBe(abcSubs);
      expectSubscriptions(c$.subscriptions).toBe(abcSubs);
      expectSubscriptions(d$.subscriptions).toBe(dSubs);
      logs.push(a$.subscriptions, b$.subscriptions, c$.subscriptions, d$.subscriptions);
    });
    expect(maxOverlap(logs.flat())).toBe(3);
  });

  it('with parallelTools off, the cap does not matter: one tool at a time, in slot order', () => {
    const logs: SubscriptionFrames[][] = [];
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ = cold('------(r|)', { r: 'A' });
      const b$ = cold('----(r|)', { r: 'B' });
      const c$ = cold('-----(r|)', { r: 'C' });
      const events =  '(Ia)--(Ab)(Bc)-(CJtz|)';
      const aSubs =   '^-----!               ';
      const bSubs =   '------^---!           ';
      const cSubs =   '----------^----!      ';
      const agent = createAgent({
        provider: batchOf('a', 'b', 'c'),
        model: 'm',
        tools: [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$)],
        knobs: { parallelTools: false, maxParallelTools: 3 },
      });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe(events, values);
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(b$.subscriptions).toBe(bSubs);
      expectSubscriptions(c$.subscriptions).toBe(cSubs);
      logs.push(a$.subscriptions, b$.subscriptions, c$.subscriptions);
    });
    expect(maxOverlap(logs.flat())).toBe(1);
  });
});
