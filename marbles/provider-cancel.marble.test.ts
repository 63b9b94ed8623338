import { map, tap } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type ModelProvider, type TurnEventOf } from '../src/index.js';
import type { ProviderEvent } from '../src/provider/provider.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../src/testing/index.js';
import { code, finish, text, toolCall, trackListeners } from './turn-harness.js';

describe('cancelling while the provider streams tears the request down and ends the turn cancelled without a round', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('the request is unsubscribed at the abort, its signal aborts, its calls are dropped and the text streamed so far is kept', () => {
    const ac = new AbortController();
    const listeners = trackListeners(ac.signal);
    const signals: AbortSignal[] = [];
    let done: TurnEventOf<'done'> | undefined;
    let a!: ReturnType<typeof fakeTool>;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const response$ = cold<ProviderEvent>('--t-----(cf|)', { t: text('let me'), c: toolCall('a'), f: finish });
      const abort =                         '----x        ';
      const expected =                      'I-t-(z|)     ';
      const responseSubs =                  '^---!        ';
      const inner = scriptedModel([response$]);
      const provider: ModelProvider = {
        name: inner.name,
        nativeTools: true,
        request: (req, signal) => (signals.push(signal), inner.request(req, signal)),
      };
      a = fakeTool('a', cold('-(r|)', { r: 'A' }));
      cold(abort).subscribe(() => ac.abort());
      const agent = createAgent({ provider, model: 'm', tools: [a] });
      const events$ = agent.run({ message: 'go', signal: ac.signal }).pipe(tap((e) => (done = e.type === 'done' ? e : done)), map(code));
      expectObservable(events$).toBe(expected, { I: 'iteration 1', t: 'text let me', z: 'done cancelled' });
      expectSubscriptions(response$.subscriptions).toBe(responseSubs);
    });
    expect(signals.map((s) => s.aborted)).toEqual([true]);
    expect(a.calls).toEqual([]);
    expect(done).toMatchObject({ reason: 'cancelled', text: 'let me', iterations: 1 });
    // the streamed text joins history as the assistant's message, so the next turn sees it
    expect(done!.history).toEqual([{ role: 'user', content: 'go' }, { role: 'assistant', content: 'let me' }]);
    expect(listeners.active()).toBe(0);
  });
});
