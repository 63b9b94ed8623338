import { map, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApprovalManager, backchannelApproval, createAgent, type ModelProvider, type ProviderEvent } from '../src/index.js';
import { createTestScheduler, fakeTool } from '../src/testing/index.js';
import { code, finish, text, toolCall } from './turn-harness.js';

/** A provider that answers its requests with these cold responses, in order. */
const responding = (responses: Observable<ProviderEvent>[]): ModelProvider => {
  let n = 0;
  return { name: 'cold', nativeTools: true, request: () => responses[n++] };
};

const delta = (index: number, argumentsDelta: string, id?: string, name?: string): ProviderEvent => ({
  type: 'tool-call-delta',
  index,
  argumentsDelta,
  ...(id !== undefined ? { id } : {}),
  ...(name !== undefined ? { name } : {}),
});

describe('tool-call-delta: a call\'s arguments as they stream, before the call is prepared', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = createTestScheduler(expect);
  });

  it('each delta comes as it arrives, with the whole text so far; the tool-call and its result come after the last one', () => {
    const read = fakeTool('read', 'ok');
    scheduler.run(({ cold, expectObservable }) => {
      const first = cold<ProviderEvent>('-a-b--(cf|)', { a: delta(0, '{"pa', 'c1', 'read'), b: delta(0, 'th":"x"}'), c: toolCall('read', { path: 'x' }, 'c1'), f: finish });
      const second = cold<ProviderEvent>('-----(tf|)', { t: text('ok'), f: finish });
      const agent = createAgent({ provider: responding([first, second]), model: 'm', tools: [read] });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe('Ia-b--(ceJ)(tD|)', {
        I: 'iteration 1', a: 'args read {"pa', b: 'args read {"path":"x"}', c: 'call read', e: 'read executed',
        J: 'iteration 2', t: 'text ok', D: 'done final',
      });
    });
    expect(read.calls.map((c) => c.args)).toEqual([{ path: 'x' }]);
  });

  it('two calls stream interleaved, each by its index; both deltas of a call carry its id and name from the first', () => {
    const events: unknown[] = [];
    const read = fakeTool('read', 'ok');
    scheduler.run(({ cold, expectObservable }) => {
      const first = cold<ProviderEvent>('-abcd(xyf|)', {
        a: delta(0, '{"n":', 'c1', 'read'), b: delta(1, '{"n":', 'c2', 'read'), c: delta(1, '2}'), d: delta(0, '1}'),
        x: toolCall('read', { n: 1 }, 'c1'), y: toolCall('read', { n: 2 }, 'c2'), f: finish,
      });
      const second = cold<ProviderEvent>('(tf|)', { t: text('ok'), f: finish });
      const agent = createAgent({ provider: responding([first, second]), model: 'm', tools: [read] });
      const run$ = agent.run({ message: 'go' }).pipe(
        map((event) => (event.type === 'tool-call-delta' ? (events.push(event), `${event.index}:${event.argumentsText}`) : event.type)),
      );
      expectObservable(run$).toBe('iabcd(CRCRiTD|)', {
        i: 'iteration', a: '0:{"n":', b: '1:{"n":', c: '1:{"n":2}', d: '0:{"n":1}', C: 'tool-call', R: 'tool-result', T: 'text-delta', D: 'done',
      });
    });
    expect(events).toEqual([
      { type: 'tool-call-delta', iteration: 1, index: 0, id: 'c1', name: 'read', argumentsText: '{"n":' },
      { type: 'tool-call-delta', iteration: 1, index: 1, id: 'c2', name: 'read', argumentsText: '{"n":' },
      { type: 'tool-call-delta', iteration: 1, index: 1, id: 'c2', name: 'read', argumentsText: '{"n":2}' },
      { type: 'tool-call-delta', iteration: 1, index: 0, id: 'c1', name: 'read', argumentsText: '{"n":1}' },
    ]);
  });

  it('every delta comes before the approval request of its call, which shows the complete arguments', () => {
    const deploy = fakeTool('deploy', 'ok');
    scheduler.run(({ cold, expectObservable }) => {
      const first = cold<ProviderEvent>('-a-b-(cf|)', { a: delta(0, '{"env":', 'd1', 'deploy'), b: delta(0, '"prod"}'), c: toolCall('deploy', { env: 'prod' }, 'd1'), f: finish });
      const second = cold<ProviderEvent>('------(tf|)', { t: text('ok'), f: finish });
      const yes = cold('--(y|)', { y: 'yes' as const });
      const agent = createAgent({
        provider: responding([first, second]),
        model: 'm',
        tools: [deploy],
        approval: new ApprovalManager({}, backchannelApproval(() => yes)),
      });
      expectObservable(agent.run({ message: 'go' }).pipe(map(code))).toBe('Ia-b-A-(yceJ)(tD|)', {
        I: 'iteration 1', a: 'args deploy {"env":', b: 'args deploy {"env":"prod"}', A: 'ask deploy', y: 'decided deploy yes',
        c: 'call deploy', e: 'deploy executed', J: 'iteration 2', t: 'text ok', D: 'done final',
      });
    });
  });

  it('the text so far is scrubbed: a secret-like key\'s value shows [REDACTED] while it streams, and after', () => {
    const login = fakeTool('login', 'ok');
    scheduler.run(({ cold, expectObservable }) => {
      const first = cold<ProviderEvent>('-a-b-(cf|)', { a: delta(0, '{"password":"hun', 'l1', 'login'), b: delta(0, 'ter2"}'), c: toolCall('login', { password: 'hunter2' }, 'l1'), f: finish });
      const second = cold<ProviderEvent>('(tf|)', { t: text('ok'), f: finish });
      const agent = createAgent({ provider: responding([first, second]), model: 'm', tools: [login] });
      const deltas$ = agent.run({ message: 'go' }).pipe(map((event) => (event.type === 'tool-call-delta' ? event.argumentsText : '')));
      expectObservable(deltas$).toBe('ia-b-(cdefg|)', { i: '', a: '{"password":"[REDACTED]', b: '{"password":"[REDACTED]"}', c: '', d: '', e: '', f: '', g: '' });
    });
  });
});
