import { map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type TurnEventOf } from '../src/index.js';
import { runQuietLoop } from '../src/loop/run-tool-loop.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code, toolMessages, INTERRUPTED } from './turn-harness.js';

const batchOf = (...names: string[]) =>
  scriptedModel([{ toolCalls: names.map((name) => ({ id: name, name, arguments: {} })) }, { text: 'the answer' }]);

describe('a quiet turn (agent.complete with nobody reading events): the same cap, cancellation and timing, done alone', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('runs under the cap and ends when a full turn does', () => {
    let done!: TurnEventOf<'done'>;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('----------------(r|)', { r: 'A' });
      const b$ =  cold('------(r|)', { r: 'B' });
      const c$ =        cold('------(r|)', { r: 'C' });
      const full =     '(Iab)-(Bc)--C---(AJtz|)';
      const quiet =    '----------------(z|)';
      const aSubs =    '^---------------!';
      const bSubs =    '^-----!';
      const cSubs =    '------^-----!';
      const tools = [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$)];
      const knobs = { parallelTools: true, maxParallelTools: 2 };
      const fullAgent = createAgent({ provider: batchOf('a', 'b', 'c'), model: 'm', tools, knobs });
      const quietAgent = createAgent({ provider: batchOf('a', 'b', 'c'), model: 'm', tools, knobs });
      const values = {
        I: 'iteration 1', J: 'iteration 2', a: 'call a', b: 'call b', c: 'call c', t: 'text the answer',
        A: 'a executed', B: 'b executed', C: 'c executed', z: 'done final',
      };
      expectObservable(fullAgent.run({ message: 'go' }).pipe(map(code))).toBe(full, values);
      expectObservable(
        runQuietLoop(quietAgent.resolved, { message: 'go' }).pipe(
          map((e) => {
            if (e.type === 'done') done = e;
            return code(e);
          }),
        ),
      ).toBe(quiet, values);
      // each tool is subscribed twice, once by each turn, at the same frames
      expectSubscriptions(a$.subscriptions).toBe([aSubs, aSubs]);
      expectSubscriptions(b$.subscriptions).toBe([bSubs, bSubs]);
      expectSubscriptions(c$.subscriptions).toBe([cSubs, cSubs]);
    });
    expect(done.text).toBe('the answer');
    expect(toolMessages(done.history)).toEqual(['a=A', 'b=B', 'c=C']);
  });

  it('cancelled with one slot done, one running and one queued: done cancelled, the rest interrupted', () => {
    let done!: TurnEventOf<'done'>;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('--(r|)', { r: 'A' });
      const b$ =  cold('--------(r|)', { r: 'B' });
      const c$ =  cold('--------(r|)', { r: 'C' });
      const abort =    '-----x';
      const expected = '-----(z|)';
      const aSubs =    '^-!';
      const bSubs =    '^----!';
      const cSubs =    '--^--!';
      const ac = new AbortController();
      cold(abort).subscribe(() => ac.abort());
      const agent = createAgent({
        provider: batchOf('a', 'b', 'c'),
        model: 'm',
        tools: [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$)],
        knobs: { parallelTools: true, maxParallelTools: 2 },
      });
      const events$ = runQuietLoop(agent.resolved, { message: 'go', signal: ac.signal }).pipe(
        map((e) => {
          if (e.type === 'done') done = e;
          return code(e);
        }),
      );
      expectObservable(events$).toBe(expected, { z: 'done cancelled' });
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(b$.subscriptions).toBe(bSubs);
      expectSubscriptions(c$.subscriptions).toBe(cSubs);
    });
    expect(done.reason).toBe('cancelled');
    expect(toolMessages(done.history)).toEqual(['a=A', `b=${INTERRUPTED}`, `c=${INTERRUPTED}`]);
  });
});
