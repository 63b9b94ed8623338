import OpenAI from 'openai';
import { Observable, tap, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAgent,
  openAIChatProvider,
  ProviderError,
  type ModelProvider,
  type ProviderEvent,
  type ProviderRequest,
  type TurnEvent,
} from '../../src/index.js';
import { fakeTool, scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';
import { eventOffset, replySse, startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { expectHealthyTurn, runTurn, slotSummary } from './turn-runner.js';

/**
 * Providers that fail: BEHAVIOUR.md and DESIGN.md say a provider failure ends the turn with a
 * typed ProviderError (HTTP status when there is one), nothing of the failed iteration reaches
 * history, and rounds already done keep exactly one result per slot. A failure after the turn
 * was cancelled is a cancellation, not an error.
 */

const tool = () => fakeTool('t', 'T');
const askT = { toolCalls: [{ id: 'c0', name: 't', arguments: { n: 0 } }] };

/** A provider whose `n`-th request (0-based) is answered by `fail`, the others by the script. */
function failingAt(n: number, fail: (req: ProviderRequest, signal: AbortSignal) => Observable<ProviderEvent>, steps: ScriptedResponse[] = [askT]) {
  const inner = scriptedModel(steps);
  const requests: ProviderRequest[] = [];
  const provider: ModelProvider = {
    name: 'faulty',
    nativeTools: true,
    request: (req, signal) => {
      requests.push(req);
      return requests.length - 1 === n ? fail(req, signal) : inner.request(req, signal);
    },
  };
  return { provider, requests };
}

const expectProviderError = (error: unknown): ProviderError => {
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
};

describe('a scripted provider that fails ends the turn with a typed ProviderError and keeps history valid', () => {
  it('request() throws instead of returning an Observable: ProviderError, no tool runs', async () => {
    const t = tool();
    const { provider, requests } = failingAt(0, () => {
      throw new Error('socket exploded');
    });
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [t] }));
    expect(expectProviderError(run.error).message).toBe("Provider 'faulty' failed: socket exploded");
    expect(t.calls).toEqual([]);
    expectHealthyTurn(run, requests);
  });

  it('the stream errors after text and a tool call arrived: the text streamed out, the call never runs', async () => {
    const t = tool();
    const { provider, requests } = failingAt(0, () => new Observable<ProviderEvent>((s) => {
      s.next({ type: 'text-delta', text: 'let me see' });
      s.next({ type: 'tool-call', id: 'c0', name: 't', arguments: '{}' });
      s.error(new Error('stream cut'));
    }));
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [t] }));
    expectProviderError(run.error);
    expect(run.events.map((e) => e.type)).toEqual(['iteration', 'text-delta']);
    expect(t.calls).toEqual([]);
    expectHealthyTurn(run, requests);
  });

  it('the stream errors with undefined: still a ProviderError', async () => {
    const { provider } = failingAt(0, () => new Observable<ProviderEvent>((s) => s.error(undefined)));
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [tool()] }));
    expect(expectProviderError(run.error).message).toBe("Provider 'faulty' failed: undefined");
  });

  it.each([
    ['a revoked Proxy', () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; }],
    ['an Error whose message getter throws', () => Object.defineProperty(new Error('x'), 'message', { get(): never { throw new Error('no message'); } })],
  ])('the stream errors with %s: still a ProviderError', async (_name, thrown) => {
    const { provider } = failingAt(0, () => new Observable<ProviderEvent>((s) => s.error(thrown())));
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [tool()] }));
    expect(expectProviderError(run.error).message).toMatch(/^Provider 'faulty' failed: /);
  });

  it.each([
    ['null', null, /not an object \(null\)/],
    ['a text-delta whose text is a number', { type: 'text-delta', text: 42 }, /text-delta event whose text is not a string/],
    ['an event of an unknown type', { type: 'thinking' }, /unknown type \('thinking'\)/],
    ['a reasoning event without its part', { type: 'reasoning' }, /reasoning event whose part is not/],
  ])('the stream sends %s: a ProviderError that names it', async (_name, event, named) => {
    const { provider } = failingAt(0, () => new Observable<ProviderEvent>((s) => (s.next(event as never), s.complete())));
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [tool()] }));
    expect(expectProviderError(run.error).message).toMatch(named);
  });

  it('a ProviderError the provider raises itself reaches the caller as it is', async () => {
    const own = new ProviderError('quota exhausted', { status: 429 });
    const { provider } = failingAt(0, () => new Observable<ProviderEvent>((s) => s.error(own)));
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [tool()] }));
    expect(run.error).toBe(own);
  });

  it('the second request fails after a tool round: the round kept one result per slot and the failed request carried a valid history', async () => {
    const t = tool();
    const { provider, requests } = failingAt(1, () => new Observable<ProviderEvent>((s) => s.error(new Error('502 from upstream'))));
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [t] }));
    expectProviderError(run.error);
    expect(slotSummary(run.events)).toEqual([[0, 't', 'executed', true, 'T']]);
    expect(requests[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expectHealthyTurn(run, requests);
  });

  it('the summary request at the iteration cap fails: the turn ends max-iterations with the fallback text', async () => {
    const { provider, requests } = failingAt(1, () => new Observable<ProviderEvent>((s) => s.error(new Error('down'))));
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [tool()], knobs: { maxToolIterations: 1 } }));
    expect(run.error).toBeUndefined();
    expect(run.done?.reason).toBe('max-iterations');
    expect(run.done?.text).toMatch(/^I stopped after 1 tool iterations/);
    expectHealthyTurn(run, requests);
  });

  it('a provider that errors because the turn was cancelled: the turn ends cancelled, not failed', async () => {
    const controller = new AbortController();
    const { provider, requests } = failingAt(0, (_req, signal) => new Observable<ProviderEvent>((s) => {
      signal.addEventListener('abort', () => s.error(new Error('aborted by signal')));
      queueMicrotask(() => controller.abort());
    }));
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [tool()] }), { message: 'go', signal: controller.signal });
    expect(run.error).toBeUndefined();
    expect(run.done?.reason).toBe('cancelled');
    expect(run.done?.history).toEqual([{ role: 'user', content: 'go' }]);
    expectHealthyTurn(run, requests);
  });
});

describe('the real openai client against the fixture server, failing mid-stream', () => {
  let server: OpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const serve = async (script: readonly ServerStep[]) => (server = await startOpenAIServer(script));
  const agentOn = (s: OpenAIServer, t = tool()) => ({
    t,
    agent: createAgent({
      provider: openAIChatProvider(new OpenAI({ baseURL: s.baseURL, apiKey: 'test-key', maxRetries: 0, logLevel: 'off' })),
      model: 'fixture-model',
      tools: [t],
    }),
  });
  const bodies = (s: OpenAIServer) => s.requests.map((r) => ({ messages: r.body.messages }));
  const toolRound: ServerStep = { kind: 'reply', toolCalls: [{ id: 'call_1', name: 't', arguments: '{"n":1}' }] };

  it('a connection reset in the second response: ProviderError without status, the first round intact, both requests valid', async () => {
    const step = { kind: 'reply', text: ['partial ', 'never seen'] } as const;
    const cut = eventOffset(replySse(step), 'never seen');
    const s = await serve([toolRound, { ...step, split: [cut], resetAfterBytes: cut + 10 }]);
    const { agent, t } = agentOn(s);
    const run = await runTurn(agent);
    expect(expectProviderError(run.error).status).toBeUndefined();
    expect(t.calls).toHaveLength(1);
    expect(slotSummary(run.events)).toEqual([[0, 't', 'executed', true, 'T']]);
    expect(run.events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual(['partial ']);
    expect(s.requests[1].body.messages.slice(1).map((m: { role: string }) => m.role)).toEqual(['assistant', 'tool']);
    expectHealthyTurn(run, bodies(s));
  });

  it('a reset while a tool call streams its arguments: ProviderError, and the half-received call never runs', async () => {
    const step = { kind: 'reply', toolCalls: [{ id: 'call_1', name: 't', arguments: ['{"n":', '1}'] }] } as const;
    const cut = eventOffset(replySse(step), '"arguments":"1}"');
    const s = await serve([{ ...step, split: [cut], resetAfterBytes: cut + 5 }]);
    const { agent, t } = agentOn(s);
    const run = await runTurn(agent);
    expectProviderError(run.error);
    expect(t.calls).toEqual([]);
    expect(run.events.filter((e) => e.type === 'tool-call')).toEqual([]);
    expectHealthyTurn(run, bodies(s));
  });

  it('an HTTP 500 on the second request: ProviderError with status 500 after a valid first round', async () => {
    const s = await serve([toolRound, { kind: 'http-error', status: 500, message: 'boom' }]);
    const { agent } = agentOn(s);
    const run = await runTurn(agent);
    expect(expectProviderError(run.error).status).toBe(500);
    expectHealthyTurn(run, bodies(s));
  });

  it('a malformed event mid-stream: ProviderError, nothing runs', async () => {
    const s = await serve([{ kind: 'raw', sse: 'data: {"choices": [{"index": 0, "delta": {"content": "a"}}]}\n\ndata: {oops\n\n' }]);
    const { agent, t } = agentOn(s);
    const run = await runTurn(agent);
    expectProviderError(run.error);
    expect(t.calls).toEqual([]);
  });

  it('a stalled stream cancelled through the signal: done cancelled, the request is closed, the text so far kept, no partial round', async () => {
    const step = { kind: 'reply', text: ['first ', 'second'] } as const;
    const s = await serve([{ ...step, stallAfterBytes: eventOffset(replySse(step), 'second') }]);
    const { agent } = agentOn(s);
    const controller = new AbortController();
    const events: TurnEvent[] = await lastValueFrom(
      agent.run({ message: 'go', signal: controller.signal }).pipe(
        tap((e) => e.type === 'text-delta' && controller.abort()),
        toArray(),
      ),
    );
    await s.clientClosed(0);
    const done = events.at(-1);
    expect(done).toMatchObject({
      type: 'done',
      reason: 'cancelled',
      text: 'first ',
      history: [{ role: 'user', content: 'go' }, { role: 'assistant', content: 'first ' }],
    });
    expectHealthyTurn({ events, done: done as never }, bodies(s));
  });
});
