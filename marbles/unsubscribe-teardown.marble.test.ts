import { map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type ModelProvider } from '../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel, type FakeTool, type ScriptedResponse } from '../src/testing/index.js';
import { code, finish, text, toolCall, trackListeners } from './turn-harness.js';

/** A scripted model that also records the abort signal of each request. */
function recordingModel(steps: ScriptedResponse[]): ModelProvider & { signals: AbortSignal[] } {
  const inner = scriptedModel(steps);
  const signals: AbortSignal[] = [];
  return {
    name: inner.name,
    nativeTools: inner.nativeTools,
    signals,
    request: (req, signal) => {
      signals.push(signal);
      return inner.request(req, signal);
    },
  };
}

describe('unsubscribing from run() tears down the provider request and every tool, leaving nothing behind', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('while tools run: running tools are unsubscribed with their signals aborted, queued ones never start', () => {
    const ac = new AbortController();
    const listeners = trackListeners(ac.signal);
    let tools!: FakeTool[];
    let pending = -1;
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const response$ =        cold('--(abcf|)', { a: toolCall('a'), b: toolCall('b'), c: toolCall('c'), f: finish });
      const a$ =               cold('----------(r|)', { r: 'A' });
      const b$ =               cold('----------(r|)', { r: 'B' });
      const c$ =               cold('----------(r|)', { r: 'C' });
      const steering$ = hot<string>('-');
      const unsub =                 '------!';
      const expected =              'I-(ab)';
      const responseSubs =          '^-!    ';
      const toolSubs =              '--^---!';
      const steeringSubs =          '^-----!';
      tools = [fakeTool('a', a$), fakeTool('b', b$), fakeTool('c', c$)];
      const agent = createAgent({
        provider: recordingModel([response$]),
        model: 'm',
        tools,
        knobs: { parallelTools: true, maxParallelTools: 2, toolTimeoutMs: 50 },
      });
      const events$ = agent.run({ message: 'go', signal: ac.signal, steering: steering$ }).pipe(map(code));
      expectObservable(events$, unsub).toBe(expected, { I: 'iteration 1', a: 'call a', b: 'call b' });
      expectSubscriptions(response$.subscriptions).toBe(responseSubs);
      expectSubscriptions(a$.subscriptions).toBe(toolSubs);
      expectSubscriptions(b$.subscriptions).toBe(toolSubs);
      expectSubscriptions(c$.subscriptions).toBe([]);
      expectSubscriptions(steering$.subscriptions).toBe(steeringSubs);
      scheduler.schedule(() => (pending = scheduler.actions.length), 7);
    });
    const [a, b, c] = tools;
    expect([a.calls[0].signal.aborted, b.calls[0].signal.aborted]).toEqual([true, true]);
    expect(c.calls).toEqual([]);
    expect(pending).toBe(0);
    expect(listeners.active()).toBe(0);
    expect(ac.signal.aborted).toBe(false);
  });

  it('while the provider streams: the request is unsubscribed and its signal aborted', () => {
    const ac = new AbortController();
    const listeners = trackListeners(ac.signal);
    const recorded: { signals?: AbortSignal[] } = {};
    let pending = -1;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =        cold('----(r|)', { r: 'A' });
      const response$ = cold('----t-----(f|)', { t: text('so far'), f: finish });
      const unsub =          '----------!';
      const expected =       '(Ia)(AJ)t  ';
      const aSubs =          '^---!      ';
      const responseSubs =   '----^-----!';
      const model = recordingModel([{ toolCalls: [{ id: 'a', name: 'a', arguments: {} }] }, response$]);
      recorded.signals = model.signals;
      const agent = createAgent({ provider: model, model: 'm', tools: [fakeTool('a', a$)] });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(map(code));
      expectObservable(events$, unsub).toBe(expected, {
        I: 'iteration 1', a: 'call a', A: 'a executed', J: 'iteration 2', t: 'text so far',
      });
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(response$.subscriptions).toBe(responseSubs);
      scheduler.schedule(() => (pending = scheduler.actions.length), 11);
    });
    expect(recorded.signals!.map((s) => s.aborted)).toEqual([false, true]);
    expect(pending).toBe(0);
    expect(listeners.active()).toBe(0);
  });

  it('while a sequential tool runs: it is torn down and the next one never starts', () => {
    let tools!: FakeTool[];
    let pending = -1;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a$ =  cold('--------(r|)', { r: 'A' });
      const b$ =  cold('--------(r|)', { r: 'B' });
      const unsub =    '-----!';
      const expected = '(Ia)  ';
      const aSubs =    '^----!';
      tools = [fakeTool('a', a$, { timeoutMs: 30 }), fakeTool('b', b$)];
      const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'a', arguments: {} }, { id: 'b', name: 'b', arguments: {} }] }]);
      const agent = createAgent({ provider: model, model: 'm', tools });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code)), unsub).toBe(expected, { I: 'iteration 1', a: 'call a' });
      expectSubscriptions(a$.subscriptions).toBe(aSubs);
      expectSubscriptions(b$.subscriptions).toBe([]);
      scheduler.schedule(() => (pending = scheduler.actions.length), 6);
    });
    expect(tools[0].calls[0].signal.aborted).toBe(true);
    expect(tools[1].calls).toEqual([]);
    expect(pending).toBe(0);
  });
});
