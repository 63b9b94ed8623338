import { Observable, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, textProtocolProvider, ToolTimeoutError, type AgentConfig, type ModelProvider, type ToolReturn, type TurnEvent } from '../../src/index.js';
import { createTestScheduler, fakeTool, scriptedModel } from '../../src/testing/index.js';
import { expectHealthyTurn, pastRejectionReports, recordProcessFaults, runTurn, slotSummary, toolContents, type TurnRun } from './turn-runner.js';

/**
 * Tools that misbehave. BEHAVIOUR.md, Dispatch: a thrown or rejected tool → failed,
 * `Error executing {name}: {message}`; `success: false` → `Error: {error or output}`; empty output
 * → `(no output)`; any other value is rendered; output longer than `maxToolResultChars` is cut
 * (UTF-8 safe). Whatever the tool does, its slot ends exactly once, the sibling call is not
 * affected, the turn goes on to the next request, and every request's history is valid — in
 * sequential, parallel and text-protocol mode.
 */

const TEXT_TOOLS = ['f', 'h'];

type Expect = readonly [outcome: string, success: boolean, output: string | RegExp];
const failed = (message: string): Expect => ['failed', false, `Error executing f: ${message}`];
const executed = (output: string | RegExp): Expect => ['executed', true, output];

const hostile = () => ({
  get success(): boolean {
    throw new Error('getter');
  },
});
class UnreadableError extends Error {
  override get message(): string {
    throw new Error('no message for you');
  }
}
const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const unreadableCode = (): Error =>
  Object.defineProperty(new Error('boom'), 'code', {
    get(): never {
      throw new Error('no code for you');
    },
  });
const circular = () => {
  const o: Record<string, unknown> = {};
  o.self = o;
  return o;
};
const unprintable = () => Object.assign(Object.create(null) as object, { toJSON: () => { throw new Error('no json'); } });

const FAULTS: [string, () => unknown, Expect][] = [
  ['throws an Error synchronously', () => { throw new Error('boom'); }, failed('boom')],
  ['throws a string', () => { throw 'boom'; }, failed('boom')],
  ['throws undefined', () => { throw undefined; }, failed('undefined')],
  ['throws an Error whose message getter throws', () => { throw new UnreadableError(); }, ['failed', false, /^Error executing f: /]],
  ['throws a revoked Proxy', () => { throw revoked(); }, ['failed', false, /^Error executing f: /]],
  ['rejects with a revoked Proxy', () => Promise.reject(revoked()), ['failed', false, /^Error executing f: /]],
  ['throws an Error whose code getter throws', () => { throw unreadableCode(); }, failed('boom')],
  ['rejects with an Error whose code getter throws', () => Promise.reject(unreadableCode()), failed('boom')],
  ['rejects with an Error', () => Promise.reject(new Error('boom')), failed('boom')],
  ['rejects with undefined', () => Promise.reject(undefined), failed('undefined')],
  ['returns an Observable that errors', () => throwError(() => new Error('boom')), failed('boom')],
  ['returns an Observable that throws on subscribe', () => new Observable(() => { throw new Error('boom'); }), failed('boom')],
  ['returns a thenable whose then throws', () => ({ then: () => { throw new Error('then broke'); } }), failed('then broke')],
  ['returns a number', () => 42, executed('42')],
  ['returns an object', () => ({ a: 1 }), executed('{"a":1}')],
  ['returns null', () => null, executed('(no output)')],
  ['returns undefined', () => undefined, executed('(no output)')],
  ['returns a bigint', () => 10n, executed('10')],
  ['returns a symbol', () => Symbol('s'), executed('Symbol(s)')],
  ['returns a circular object', circular, executed(/./)],
  ['returns an Observable of several values (the first counts)', () => new Observable((s) => { s.next('one'); s.next('two'); s.complete(); }), executed('one')],
  ['returns an Observable that completes empty', () => new Observable((s) => s.complete()), executed('(no output)')],
  ['returns a ToolResult with a non-string output', () => ({ success: true, output: 42 }), executed('42')],
  ['returns success: false with an output', () => ({ success: false, output: 'bad input' }), ['failed', false, 'Error: bad input']],
  ['returns success: false with a non-string error', () => ({ success: false, output: '', error: { code: 7 } }), ['failed', false, 'Error: {"code":7}']],
  ['returns a success flag that is not a boolean', () => ({ success: 'yes', output: 'x' }), executed('{"success":"yes","output":"x"}')],
  ['returns an object whose getter throws', hostile, failed('getter')],
  ['resolves to an object whose getter throws', () => Promise.resolve(hostile()), failed('getter')],
  ['returns an object that cannot be rendered at all', unprintable, ['failed', false, /^Error executing f: /]],
  ['resolves to an object that cannot be rendered at all', () => Promise.resolve(unprintable()), ['failed', false, /^Error executing f: /]],
  ['returns an Observable of a revoked Proxy', () => new Observable((s) => { s.next(revoked()); s.complete(); }), ['failed', false, /^Error executing f: /]],
  ['returns lone surrogates', () => 'a\uD800b\uDC00c', executed('a\uD800b\uDC00c')],
];

const MODES: [string, (calls: string) => { provider: ModelProvider; requests: () => readonly { messages: readonly never[] }[] }, Partial<AgentConfig>][] = [
  ['sequential', () => native(), {}],
  ['parallel', () => native(), { knobs: { parallelTools: true } }],
  // a promise with a deadline settles through its own path, the deadline's timer beside it
  ['parallel, with a deadline', () => native(), { knobs: { parallelTools: true, toolTimeoutMs: 60_000 } }],
  ['text protocol', () => text(), {}],
];

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

function native() {
  const model = scriptedModel([{ toolCalls: [{ id: 'cf', name: 'f', arguments: {} }, { id: 'ch', name: 'h', arguments: {} }] }, { text: 'final' }]);
  return { provider: model as ModelProvider, requests: () => model.requests as never };
}
function text() {
  const inner = scriptedModel(
    [{ text: 'Using tools. <tool_call>{"name":"f","arguments":{}}</tool_call><tool_call>{"name":"h","arguments":{}}</tool_call>' }, { text: 'final' }],
    { nativeTools: false },
  );
  return { provider: textProtocolProvider(inner), requests: () => inner.requests as never };
}

describe.each(MODES)('a misbehaving tool fails or renders as BEHAVIOUR.md says, and the turn goes on (%s)', (mode, make, config) => {
  it.each(FAULTS)('a tool that %s', async (_name, behaviour, [outcome, success, output]) => {
    const { provider, requests } = make('');
    const f = fakeTool('f', () => behaviour() as ToolReturn);
    const h = fakeTool('h', 'H');
    const before = timers();
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [f, h], ...config }));
    expect(timers()).toBe(before); // a deadline's timer is cleared once the call settles
    expect(run.error).toBeUndefined();
    const [slotF, slotH] = slotSummary(run.events);
    expect(slotF.slice(0, 4)).toEqual([0, 'f', outcome, success]);
    if (typeof output === 'string') expect(slotF[4]).toBe(output);
    else expect(slotF[4]).toMatch(output);
    expect(slotH).toEqual([1, 'h', 'executed', true, 'H']);
    expect(run.done?.reason).toBe('final');
    expect(requests()).toHaveLength(2);
    expectHealthyTurn(run, requests(), mode === 'text protocol' ? TEXT_TOOLS : undefined);
    if (mode !== 'text protocol') expect(toolContents(run.done!.history)).toEqual([slotF[4], 'H']);
  });
});

describe('huge output is cut to maxToolResultChars, UTF-8 safe, in history and events alike', () => {
  it('10 MB of text: the slot keeps the head and tail of the budget with a marker', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'c', name: 'f', arguments: {} }] }, { text: 'final' }]);
    const run = await runTurn(createAgent({ provider: model, model: 'm', tools: [fakeTool('f', () => 'x'.repeat(10_000_000))], knobs: { maxToolResultChars: 3000 } }));
    const [[, , outcome, , output]] = slotSummary(run.events);
    expect(outcome).toBe('executed');
    expect(output).toMatch(/^x{2000}\n\n\[\.\.\. 9997000 characters truncated \.\.\.\]\n\nx{1000}$/);
    expect(toolContents(run.done!.history)).toEqual([output]);
    expectHealthyTurn(run, model.requests);
  });

  it('astral characters cut at any budget never leave half a surrogate pair', async () => {
    for (const budget of [999, 1000, 1001, 1002]) {
      const model = scriptedModel([{ toolCalls: [{ id: 'c', name: 'f', arguments: {} }] }, { text: 'final' }]);
      const run = await runTurn(createAgent({ provider: model, model: 'm', tools: [fakeTool('f', () => '😀'.repeat(5000))], knobs: { maxToolResultChars: budget } }));
      const content = toolContents(run.done!.history)[0];
      expect(content).toContain('characters truncated');
      expect(content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expectHealthyTurn(run, model.requests);
    }
  });
});

describe('a tool that ignores its abort signal cannot change a cancelled turn', () => {
  it('its late result, after the turn ended cancelled, adds no event and no history', async () => {
    const controller = new AbortController();
    let resolveLate!: (value: string) => void;
    const f = fakeTool('f', () => {
      queueMicrotask(() => controller.abort());
      return new Promise<string>((resolve) => (resolveLate = resolve));
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'c', name: 'f', arguments: {} }] }]);
    const agent = createAgent({ provider: model, model: 'm', tools: [f], observers: [(e) => void seen.push(e.type)] });
    const seen: string[] = [];
    const run = await runTurn(agent, { message: 'go', signal: controller.signal });
    const history = JSON.stringify(run.done?.history);
    resolveLate('too late');
    await Promise.resolve();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(slotSummary(run.events)).toEqual([[0, 'f', 'interrupted', false, '[interrupted before this tool produced a result]']]);
    expect(f.calls[0].signal.aborted).toBe(true);
    expect(seen).toEqual(['tool-call-start', 'tool-call-end']);
    expect(JSON.stringify(run.done?.history)).toBe(history);
    expectHealthyTurn(run, model.requests);
  });

  it('its late rejection is not an unhandled rejection', async () => {
    const controller = new AbortController();
    let rejectLate!: (err: Error) => void;
    const f = fakeTool('f', () => {
      queueMicrotask(() => controller.abort());
      return new Promise<string>((_resolve, reject) => (rejectLate = reject));
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'c', name: 'f', arguments: {} }] }]);
    const watch = recordProcessFaults();
    let run: TurnRun;
    try {
      run = await runTurn(createAgent({ provider: model, model: 'm', tools: [f] }), { message: 'go', signal: controller.signal });
      rejectLate(new Error('late failure'));
      await pastRejectionReports();
    } finally {
      watch.stop();
    }
    expect(watch.faults).toEqual([]);
    expect(run.done?.reason).toBe('cancelled');
    expect(slotSummary(run.events)).toEqual([[0, 'f', 'interrupted', false, '[interrupted before this tool produced a result]']]);
    expectHealthyTurn(run, model.requests);
  });
});

describe('a tool that cancels its own turn while it runs: its slot and the rest end interrupted, exactly once', () => {
  it.each([
    ['returns a value', (abort: () => void) => () => (abort(), 'kept?')],
    ['returns a promise', (abort: () => void) => () => (abort(), Promise.resolve('kept?'))],
    ['returns a promise that never settles', (abort: () => void) => () => (abort(), new Promise<string>(() => {}))],
  ] as const)('sequential and parallel: a tool that aborts the signal synchronously and %s', async (_name, behaviour) => {
    for (const parallelTools of [false, true]) {
      const controller = new AbortController();
      const f = fakeTool('f', behaviour(() => controller.abort()));
      const h = fakeTool('h', 'H');
      const model = scriptedModel([{ toolCalls: [{ id: 'cf', name: 'f', arguments: {} }, { id: 'ch', name: 'h', arguments: {} }] }]);
      const run = await runTurn(createAgent({ provider: model, model: 'm', tools: [f, h], knobs: { parallelTools, toolTimeoutMs: 60_000 } }), {
        message: 'go',
        signal: controller.signal,
      });
      expect(run.error).toBeUndefined();
      expect(slotSummary(run.events).map((s) => s[2])).toEqual(['interrupted', 'interrupted']);
      expect(f.calls[0].signal.aborted).toBe(true);
      expect(h.calls).toEqual([]);
      expect(run.done?.reason).toBe('cancelled');
      expectHealthyTurn(run, model.requests);
    }
  });
});

describe('a tool that never settles fails on its timeout (virtual time): its signal aborts and no timer is left', () => {
  it.each([
    ['ignores its signal', () => new Promise<string>(() => {})],
    ['returns an Observable that never emits', () => new Observable<string>(() => {})],
    ['listens to its signal but never answers', (_args: unknown, ctx: { signal: AbortSignal }) => (ctx.signal.addEventListener('abort', () => {}), new Promise<string>(() => {}))],
  ] as const)('a tool that %s', (_name, behaviour) => {
    const scheduler = createTestScheduler(expect);
    const events: TurnEvent[] = [];
    let pending = -1;
    const f = fakeTool('f', behaviour as never);
    const model = scriptedModel([{ toolCalls: [{ id: 'cf', name: 'f', arguments: {} }, { id: 'ch', name: 'h', arguments: {} }] }, { text: 'final' }]);
    scheduler.run(() => {
      const agent = createAgent({ provider: model, model: 'm', tools: [f, fakeTool('h', 'H')], knobs: { toolTimeoutMs: 30, parallelTools: true } });
      agent.run({ message: 'go' }).subscribe((e) => events.push(e));
      scheduler.schedule(() => (pending = scheduler.actions.length), 100);
    });
    expect(slotSummary(events)).toEqual([
      [0, 'f', 'failed', false, 'Error executing f: timed out after 30 ms'],
      [1, 'h', 'executed', true, 'H'],
    ]);
    const result = events.find((e) => e.type === 'tool-result' && e.slot === 0) as { durationMs: number };
    expect(result.durationMs).toBe(30);
    expect(f.calls[0].signal.aborted).toBe(true);
    expect(f.calls[0].signal.reason).toBeInstanceOf(ToolTimeoutError);
    expect(pending).toBe(0);
    const done = events.at(-1) as { type: string; reason: string };
    expect([done.type, done.reason]).toEqual(['done', 'final']);
    expectHealthyTurn({ events, done: events.at(-1) as never }, model.requests);
  });
});
