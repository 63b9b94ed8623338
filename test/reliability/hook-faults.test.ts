import { NEVER, Observable, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, type AgentConfig, type BeforeToolCallHook, type ToolObserver } from '../../src/index.js';
import { ApprovalManager, POLICY_DENIAL_TEXT, type ApprovalFrontDoor } from '../../src/approval/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { expectHealthyTurn, recordingLogger, runTurn, slotSummary } from './turn-runner.js';

/**
 * Faults in the code an application plugs into the loop — beforeToolCall/afterToolCall hooks,
 * observers, approval front doors. BEHAVIOUR.md: a hook that throws is logged and ignored; an
 * observer that throws is ignored; a front door that fails, answers nonsense or never answers
 * leaves the prompt unanswerable (denied by policy) or, once cancelled, interrupted.
 * Every case checks invariant 1 and that the history is valid for the next request.
 */

/** A two-call batch (`t` answers at once, `u` as a Promise), then a final answer. */
function agentWith(config: Partial<AgentConfig>) {
  const model = scriptedModel([
    { toolCalls: [{ id: 'c0', name: 't', arguments: { n: 0 } }, { id: 'c1', name: 'u', arguments: { n: 1 } }] },
    { text: 'final' },
  ]);
  const t = fakeTool('t', 'T');
  const u = fakeTool('u', () => Promise.resolve('U'));
  const logger = recordingLogger();
  const agent = createAgent({ provider: model, model: 'm', tools: [t, u], logger, ...config });
  return { model, agent, t, u, logger };
}

const executedBoth = [
  [0, 't', 'executed', true, 'T'],
  [1, 'u', 'executed', true, 'U'],
];

const hostileDecision = () => ({
  get name(): string {
    throw new Error('decision getter');
  },
});
const trapEverything = () =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error('proxy get');
      },
      has: () => {
        throw new Error('proxy has');
      },
      ownKeys: () => {
        throw new Error('proxy ownKeys');
      },
    },
  );

const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const throwingGetter = (key: 'code' | 'message') => (): Error =>
  Object.defineProperty(new Error('unreadable'), key, {
    get(): never {
      throw new Error(`no ${key}`);
    },
  });
const unreadableCode = throwingGetter('code');
const unreadableMessage = throwingGetter('message');

const failingBeforeHooks: [string, BeforeToolCallHook][] = [
  ['throws an Error', () => { throw new Error('hook failed'); }],
  ['throws undefined', () => { throw undefined; }],
  ['rejects', () => Promise.reject(new Error('hook rejected'))],
  ['returns an Observable that errors', () => throwError(() => new Error('hook errored'))],
  ['returns a number', () => 42 as never],
  ['returns a string', () => 'shell' as never],
  ['returns a blank name', () => ({ name: '   ' })],
  ['returns non-object args', () => ({ args: 'rm -rf /' as never })],
  ['returns a decision whose getter throws', () => hostileDecision() as never],
  ['returns a Proxy that throws on every access', () => trapEverything() as never],
  ['resolves to a decision whose getter throws', () => Promise.resolve(hostileDecision() as never)],
  ['returns a thenable whose then throws', () => ({ then: () => { throw new Error('then broke'); } }) as never],
  ['returns a thenable that rejects at once, inside then', () => ({ then: (_ok: unknown, fail: (e: Error) => void) => fail(new Error('rejected inside then')) }) as never],
  ['returns an Observable that completes without a value', () => new Observable<never>((s) => s.complete())],
];

describe('a beforeToolCall hook that fails is logged and ignored: the call runs unchanged', () => {
  it.each(failingBeforeHooks)('a hook that %s', async (_name, hook) => {
    const { agent, model, t, u, logger } = agentWith({ hooks: { beforeToolCall: [hook] } });
    const run = await runTurn(agent);
    expect(run.error).toBeUndefined();
    expect(slotSummary(run.events)).toEqual(executedBoth);
    expect([t.calls.map((c) => c.args), u.calls.map((c) => c.args)]).toEqual([[{ n: 0 }], [{ n: 1 }]]);
    expect(run.done?.reason).toBe('final');
    expectHealthyTurn(run, model.requests);
    if (_name !== 'returns an Observable that completes without a value') expect(logger.warnings.length).toBeGreaterThanOrEqual(2);
  });

  it('a failing hook does not stop the next hook from applying', async () => {
    const { agent, model } = agentWith({
      hooks: { beforeToolCall: [() => { throw new Error('first'); }, (call) => (call.name === 'u' ? { cancel: 'second says no' } : undefined)] },
    });
    const run = await runTurn(agent);
    expect(slotSummary(run.events)).toEqual([
      [0, 't', 'executed', true, 'T'],
      [1, 'u', 'hook-cancelled', false, 'Cancelled by hook: second says no'],
    ]);
    expectHealthyTurn(run, model.requests);
  });

  it('a hook that never answers holds the batch until the turn is cancelled: every slot ends interrupted and nothing runs', async () => {
    const controller = new AbortController();
    const { agent, model, t, u } = agentWith({
      hooks: { beforeToolCall: [() => (queueMicrotask(() => controller.abort()), NEVER)] },
    });
    const run = await runTurn(agent, { message: 'go', signal: controller.signal });
    expect(slotSummary(run.events).map((s) => s[2])).toEqual(['interrupted', 'interrupted']);
    expect([t.calls, u.calls]).toEqual([[], []]);
    expect(run.done?.reason).toBe('cancelled');
    expectHealthyTurn(run, model.requests);
  });
});

describe('an afterToolCall hook that fails is logged and ignored: results are unchanged', () => {
  it.each([
    ['throws', () => { throw new Error('after failed'); }],
    ['rejects', () => Promise.reject(new Error('after rejected'))],
    ['never settles', () => new Promise<void>(() => {})],
    ['throws a revoked Proxy', () => { throw revoked(); }],
    ['rejects with a revoked Proxy', () => Promise.reject(revoked())],
    ['throws an Error whose code getter throws', () => { throw unreadableCode(); }],
    ['rejects with an Error whose message getter throws', () => Promise.reject(unreadableMessage())],
  ] as const)('a hook that %s', async (_name, hook) => {
    const { agent, model } = agentWith({ hooks: { afterToolCall: [hook] } });
    const run = await runTurn(agent);
    expect(slotSummary(run.events)).toEqual(executedBoth);
    expect(run.done?.reason).toBe('final');
    expectHealthyTurn(run, model.requests);
  });
});

describe('an observer that throws is ignored: results are unchanged', () => {
  const observers: [string, ToolObserver][] = [
    ['throws on tool-call-start', (e) => { if (e.type === 'tool-call-start') throw new Error('start'); }],
    ['throws on tool-call-end', (e) => { if (e.type === 'tool-call-end') throw new Error('end'); }],
    ['throws undefined on every event', () => { throw undefined; }],
    ['is async and rejects on every event', async () => { throw new Error('async observer'); }],
    ['returns a thenable whose then throws', () => ({ then: () => { throw new Error('then'); } }) as never],
    ['returns a revoked Proxy', () => revoked() as never],
  ];
  it.each(observers)('an observer that %s', async (_name, observer) => {
    const seen: string[] = [];
    const { agent, model } = agentWith({ observers: [observer, (e) => void seen.push(e.type)] });
    const run = await runTurn(agent);
    expect(slotSummary(run.events)).toEqual(executedBoth);
    expect(seen).toEqual(['tool-call-start', 'tool-call-end', 'tool-call-start', 'tool-call-end']);
    expectHealthyTurn(run, model.requests);
  });

  it('an observer that cancels the turn from tool-call-start: that tool never starts and the batch closes interrupted', async () => {
    const controller = new AbortController();
    const { agent, model, t, u } = agentWith({ observers: [(e) => e.type === 'tool-call-start' && e.tool === 'u' && controller.abort()] });
    const run = await runTurn(agent, { message: 'go', signal: controller.signal });
    expect(slotSummary(run.events).map((s) => s[2])).toEqual(['executed', 'interrupted']);
    expect([t.calls.length, u.calls.length]).toEqual([1, 0]);
    expect(run.done?.reason).toBe('cancelled');
    expectHealthyTurn(run, model.requests);
  });
});

describe('an approval front door that fails or answers nonsense leaves the call unanswerable: denied by policy, never run', () => {
  const doors: [string, ApprovalFrontDoor['ask']][] = [
    ['throws', () => { throw new Error('door broke'); }],
    ['rejects', () => Promise.reject(new Error('door rejected'))],
    ['errors its Observable', () => throwError(() => new Error('door errored'))],
    ['completes without an answer', () => new Observable<never>((s) => s.complete())],
    ['answers an unknown word', () => 'maybe' as never],
    ['answers a number', () => 1 as never],
    ['answers true', () => true as never],
    ['answers a replacement that is not text', () => ({ replaceWith: 5 }) as never],
    ['answers an object whose getter throws', () => ({ get replaceWith(): string { throw new Error('getter'); } }) as never],
    ['answers an object whose then getter throws', () => ({ get then(): never { throw new Error('then getter'); } }) as never],
    ['answers an object whose subscribe getter throws', () => ({ get subscribe(): never { throw new Error('subscribe getter'); } }) as never],
    ['answers a revoked Proxy', () => revoked() as never],
    ['answers a thenable whose then throws', () => ({ then: () => { throw new Error('then threw'); } }) as never],
  ];
  it.each(doors)('a front door that %s', async (_name, ask) => {
    const approval = new ApprovalManager({ autoApprove: ['*'], alwaysAsk: ['u'] }, { name: 'faulty', ask });
    const { agent, model, u } = agentWith({ approval });
    const run = await runTurn(agent);
    expect(slotSummary(run.events)).toEqual([
      [0, 't', 'executed', true, 'T'],
      [1, 'u', 'denied', false, POLICY_DENIAL_TEXT],
    ]);
    expect(u.calls).toEqual([]);
    expect(approval.auditLog.map((e) => [e.decision, e.decidedBy, e.byOperator])).toEqual([['no', 'policy', false]]);
    expectHealthyTurn(run, model.requests);
  });

  it('a front door that never answers: cancelling withdraws the question, records no decision, and the slot ends interrupted', async () => {
    const controller = new AbortController();
    let withdrawn = false;
    const door: ApprovalFrontDoor = {
      name: 'silent',
      ask: (_req, signal) => {
        signal.addEventListener('abort', () => (withdrawn = true));
        queueMicrotask(() => controller.abort());
        return new Promise(() => {});
      },
    };
    const approval = new ApprovalManager({ autoApprove: ['*'], alwaysAsk: ['t'] }, door);
    const { agent, model, t, u } = agentWith({ approval });
    const run = await runTurn(agent, { message: 'go', signal: controller.signal });
    expect(slotSummary(run.events).map((s) => s[2])).toEqual(['interrupted', 'interrupted']);
    expect([t.calls, u.calls]).toEqual([[], []]);
    expect(withdrawn).toBe(true);
    expect(approval.auditLog).toEqual([]);
    expect(run.done?.reason).toBe('cancelled');
    expectHealthyTurn(run, model.requests);
  });
});
