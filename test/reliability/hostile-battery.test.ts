import { Observable, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalManager,
  createAgent,
  defineTool,
  ToolLoopError,
  type AgentConfig,
  type ApprovalFrontDoor,
  type ModelProvider,
  type ProviderEvent,
} from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { expectHealthyTurn, runTurn, type TurnRun, failOnProcessFaults } from './turn-runner.js';

/**
 * Every public entry point of a turn, fed a battery of hostile values (BEHAVIOUR.md, Robustness):
 * thrown, rejected, returned or emitted by a tool, a hook, an observer, a front door, a provider,
 * a logger, or passed to `resume`. Each turn ends — with `done`, or with a typed ToolLoopError —
 * and neither `uncaughtException` nor `unhandledRejection` fires.
 */

const revoked = (): unknown => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const throwing = (key: string) => (): unknown =>
  Object.defineProperty(new Error('hostile'), key, {
    get(): never {
      throw revoked();
    },
  });
const circular = (): unknown => {
  const o: Record<string, unknown> = { name: 'loop' };
  o.self = o;
  return o;
};
const BATTERY: [string, () => unknown][] = [
  ['a revoked Proxy', revoked],
  ['an Error whose code getter throws', throwing('code')],
  ['an Error whose message getter throws', throwing('message')],
  ['an Error whose name getter throws', throwing('name')],
  ['an Error whose stack getter throws', throwing('stack')],
  ['an object whose toJSON throws', () => ({ toJSON: () => { throw new Error('toJSON'); } })],
  ['a circular object', circular],
  ['null', () => null],
  ['undefined', () => undefined],
  ['a Symbol', () => Symbol('hostile')],
  ['a BigInt', () => 10n],
  ['NaN', () => Number.NaN],
];

failOnProcessFaults();

const script = () => scriptedModel([{ toolCalls: [{ id: 'c0', name: 't', arguments: {} }, { id: 'c1', name: 'u', arguments: {} }] }, { text: 'final' }]);
const tool = (name: string, execute: () => unknown) => defineTool({ name, description: '', parameters: z.object({}), execute: execute as never });
const calm = () => tool('u', () => 'U');

/** The turn ended: `done` (healthy), or a typed error. */
function expectEnded(run: TurnRun): void {
  if (run.error !== undefined) expect(run.error).toBeInstanceOf(ToolLoopError);
  else expectHealthyTurn(run);
}

const agent = (config: Partial<AgentConfig>) => createAgent({ provider: script(), model: 'm', tools: [tool('t', () => 'T'), calm()], ...config });

describe.each(BATTERY)('%s', (_name, hostile) => {
  it('thrown and rejected by a tool: the slot fails, the turn goes on', async () => {
    for (const execute of [() => { throw hostile(); }, () => Promise.reject(hostile()), () => throwError(hostile)]) {
      const run = await runTurn(agent({ tools: [tool('t', execute), calm()] }));
      expectHealthyTurn(run);
      expect(run.done?.text).toBe('final');
    }
  });

  it('returned by a tool: rendered or failed, never thrown', async () => {
    const run = await runTurn(agent({ tools: [tool('t', hostile), calm()] }));
    expectHealthyTurn(run);
  });

  it('thrown and rejected by hooks: logged and ignored', async () => {
    for (const hook of [() => { throw hostile(); }, () => Promise.reject(hostile())]) {
      expectHealthyTurn(await runTurn(agent({ hooks: { beforeToolCall: [hook as never], afterToolCall: [hook as never] } })));
    }
  });

  it('thrown, rejected or returned by an observer: ignored', async () => {
    for (const observer of [() => { throw hostile(); }, () => Promise.reject(hostile()), hostile]) {
      expectHealthyTurn(await runTurn(agent({ observers: [observer as never] })));
    }
  });

  it('thrown, rejected or answered by an approval front door: denied by policy', async () => {
    for (const ask of [() => { throw hostile(); }, () => Promise.reject(hostile()), hostile, () => throwError(hostile)]) {
      const approval = new ApprovalManager({ autoApprove: ['u'], alwaysAsk: ['t'] }, { name: 'hostile', ask } as ApprovalFrontDoor);
      const run = await runTurn(agent({ approval }));
      expectHealthyTurn(run);
      expect(approval.auditLog.map((e) => [e.decision, e.decidedBy, e.byOperator])).toEqual([['no', 'policy', false]]);
    }
  });

  it('thrown, errored or emitted by a provider: a typed ProviderError', async () => {
    const providers: ModelProvider[] = [
      { name: 'p', nativeTools: true, request: () => { throw hostile(); } },
      { name: 'p', nativeTools: true, request: () => throwError(hostile) },
      { name: 'p', nativeTools: true, request: () => new Observable<ProviderEvent>((s) => (s.next(hostile() as never), s.complete())) },
      { name: 'p', nativeTools: true, request: () => new Observable<ProviderEvent>((s) => (s.next({ type: 'text-delta', text: hostile() } as never), s.complete())) },
    ];
    for (const provider of providers) {
      for (const complete of [false, true]) {
        const a = agent({ provider });
        const run = complete ? await a.complete({ message: 'go' }).then((outcome) => ({ events: [], outcome }), (error: unknown) => ({ events: [], error })) : await runTurn(a);
        expect((run as { error?: unknown }).error).toBeInstanceOf(ToolLoopError);
      }
    }
  });

  it('thrown by every method of a logger: the turn still ends', async () => {
    const fail = () => { throw hostile(); };
    const logger = { debug: fail, info: fail, warn: fail, error: fail };
    const run = await runTurn(agent({ logger, tools: [tool('t', () => { throw hostile(); }), calm()], observers: [fail] }));
    expectEnded(run);
  });

  it('given to resume as a snapshot or as its decisions: a typed SnapshotMismatchError, nothing runs', async () => {
    let ran = 0;
    const a = agent({ tools: [tool('t', () => (ran += 1, 'T')), calm()] });
    for (const [snapshot, decisions] of [[hostile(), {}], [{ version: 1 }, hostile()]] as const) {
      const ended = await new Promise<unknown>((resolve) => a.resume(snapshot as never, { decisions: decisions as never }).subscribe({ error: resolve, complete: () => resolve('completed') }));
      expect(ended).toBeInstanceOf(ToolLoopError);
    }
    expect(ran).toBe(0);
  });

  it('given to run as the message, the history or the tools: the turn ends or a typed error', async () => {
    for (const input of [{ message: hostile() }, { message: 'go', history: hostile() }, { message: 'go', tools: hostile() }]) {
      const a = agent({});
      let run: TurnRun;
      try {
        run = await runTurn(a, input as never);
      } catch (error) {
        run = { events: [], error };
      }
      expectEnded(run);
    }
  });
});
