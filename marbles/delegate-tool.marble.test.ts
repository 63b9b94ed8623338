import { map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, delegateTool } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code } from './turn-harness.js';

/** The parent delegates once; the child calls `slow` once, then answers. */
function family(slow: ReturnType<typeof fakeTool>) {
  const child = createAgent({
    name: 'child',
    provider: scriptedModel([{ toolCalls: [{ id: 'k', name: 'slow', arguments: {} }] }, { text: 'ok' }]),
    model: 'm',
    tools: [slow],
  });
  const ask = delegateTool({ agent: child, name: 'ask', description: 'Asks the child.' });
  return createAgent({ provider: scriptedModel([{ toolCalls: [{ id: 'p', name: 'ask', arguments: { task: 't' } }] }, { text: 'done' }]), model: 'm', tools: [ask] });
}

const codes = {
  I: 'iteration 1', c: 'call ask', i: 'child> iteration 1', k: 'child> call slow', s: 'child> slow executed',
  j: 'child> iteration 2', t: 'child> text ok', R: 'ask executed', J: 'iteration 2', T: 'text done', z: 'done final',
  x: 'child> slow interrupted', X: 'ask interrupted', Z: 'done cancelled',
};

describe("a sub-agent's events come nested between its call's tool-call and tool-result", () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it("the child's turn plays inside the call: its events in order, then the call's result, then the parent goes on", () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow$ =    cold('--------(r|)', { r: 'S' });
      const expected =      '(Icik)--(sjtRJTz|)';
      const slowSubs =      '^-------!';
      const events$ = family(fakeTool('slow', slow$)).run({ message: 'go' }).pipe(map(code));
      expectObservable(events$).toBe(expected, codes);
      expectSubscriptions(slow$.subscriptions).toBe(slowSubs);
    });
  });

  it("cancelled mid-child: the child's running call ends interrupted before the parent's call does", () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow$ =    cold('--------(r|)', { r: 'S' });
      const abort =         '------x';
      const expected =      '(Icik)(xXZ|)';
      const slowSubs =      '^-----!';
      const slow = fakeTool('slow', slow$);
      const ac = new AbortController();
      cold(abort).subscribe(() => ac.abort());
      const events$ = family(slow).run({ message: 'go', signal: ac.signal }).pipe(map(code));
      expectObservable(events$).toBe(expected, codes);
      expectSubscriptions(slow$.subscriptions).toBe(slowSubs);
    });
  });
});
