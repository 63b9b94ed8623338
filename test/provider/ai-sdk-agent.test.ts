import { afterEach, describe, expect, it } from 'vitest';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { aiSdkProvider, createAgent, defineTool, ProviderError, type AiSdkCallOptions, type AiSdkLanguageModel, type Agent, type TurnEvent } from '../../src/index.js';
import { eventOffset, replySse, startOpenAIServer, type OpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { MODELS } from './ai-sdk-models.js';

let server: OpenAIServer | undefined;
const serve = async (script: readonly ServerStep[]) => (server = await startOpenAIServer(script));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

const divide = defineTool({
  name: 'divide',
  description: 'Divides a by b',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => (b === 0 ? { success: false, output: '', error: 'division by zero' } : String(a / b)),
});

/** The real model, passing through what it is asked (middleware-style), so a test can read the spec prompt. */
function recording(model: AiSdkLanguageModel, calls: AiSdkCallOptions[]): AiSdkLanguageModel {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    doStream: (options) => (calls.push(options), model.doStream(options)),
  };
}

const addCall = { kind: 'reply', toolCalls: [{ id: 'call_1', name: 'add', arguments: ['{"a":', '1,"b":2}'] }] } as const;
const sse = (...deltas: object[]) =>
  deltas.map((delta, i) => `data: ${JSON.stringify({ id: 'r1', model: 'm', choices: [{ index: 0, delta, finish_reason: i === deltas.length - 1 ? 'tool_calls' : null }] })}\n\n`).join('') + 'data: [DONE]\n\n';

describe.each(MODELS)('A whole turn through createAgent and the real $label', ({ on, spec }) => {
  const agentOn = (s: OpenAIServer, model: AiSdkLanguageModel = on(s)): Agent => createAgent({ provider: aiSdkProvider(model), model: 'fixture-model', tools: [add, divide] });

  it('sends the tools, runs the call, and sends the assistant turn and the result back', async () => {
    const s = await serve([addCall, { kind: 'reply', text: ['The sum ', 'is 3.'] }]);
    const events = await lastValueFrom(agentOn(s).run({ message: 'What is 1+2?' }).pipe(toArray()));
    expect(s.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['add', 'divide']);
    expect(s.requests[1].body.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '3' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'The sum is 3.', reason: 'final', iterations: 2, usage: { inputTokens: 20, outputTokens: 10 } });
  });

  it('the call’s arguments stream as tool-call-delta events before its tool-call event', async () => {
    const s = await serve([addCall, { kind: 'reply', text: 'ok' }]);
    const events = await lastValueFrom(agentOn(s).run({ message: 'What is 1+2?' }).pipe(toArray()));
    const kinds = events.filter((e) => e.type === 'tool-call-delta' || e.type === 'tool-call').map((e) => e.type);
    expect(kinds).toEqual(['tool-call-delta', 'tool-call-delta', 'tool-call']);
    const deltas = events.filter((e): e is Extract<TurnEvent, { type: 'tool-call-delta' }> => e.type === 'tool-call-delta');
    expect(deltas.map((d) => [d.index, d.name, d.argumentsText])).toEqual([
      [0, 'add', '{"a":'],
      [0, 'add', '{"a":1,"b":2}'],
    ]);
  });

  it('a failed slot goes back as an error-text result, and reasoning goes back on the assistant turn', async () => {
    const first = sse({ reasoning_content: 'Divide ' }, { reasoning_content: 'first.' }, { tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { name: 'divide', arguments: '{"a":1,"b":0}' } }] }, {});
    const s = await serve([{ kind: 'raw', sse: first }, { kind: 'reply', text: 'Cannot divide by zero.' }]);
    const calls: AiSdkCallOptions[] = [];
    const done = await agentOn(s, recording(on(s), calls)).complete({ message: '1/0?' });
    expect(done.text).toBe('Cannot divide by zero.');
    expect(calls[1].prompt.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Divide first.' },
          { type: 'tool-call', toolCallId: 'call_9', toolName: 'divide', input: { a: 1, b: 0 } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_9', toolName: 'divide', output: { type: 'error-text', value: 'Error: division by zero' } }] },
    ]);
    expect(s.requests[1].body.messages[1]).toMatchObject({ role: 'assistant', reasoning_content: 'Divide first.' });
  });

  it('a call’s thought signature (Gemini’s extra_content) goes back with the call', async () => {
    const signed = { index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' }, extra_content: { google: { thought_signature: 'sig-1' } } };
    const s = await serve([{ kind: 'raw', sse: sse({ tool_calls: [signed] }, {}) }, { kind: 'reply', text: '3' }]);
    // the 2.x line reads the signature back under `google` only; the 1.x line (spec v2) keeps none
    await agentOn(s, on(s, 'test-key', 'fixture-model', 'google')).complete({ message: '1+2?' });
    const [sent] = s.requests[1].body.messages[1].tool_calls;
    expect(sent.extra_content).toEqual(spec === 'v2' ? undefined : { google: { thought_signature: 'sig-1' } });
  });

  it('an HTTP error in the second iteration rejects complete() with a ProviderError and its status', async () => {
    const s = await serve([addCall, { kind: 'http-error', status: 400, message: 'bad request' }]);
    const err = await agentOn(s).complete({ message: 'What is 1+2?' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ status: 400, message: "Provider 'fixture.chat' failed (HTTP 400): bad request" });
  });

  it('cancelling the turn mid-stream closes the connection and ends with done(cancelled)', async () => {
    const step = { kind: 'reply', text: ['Thinking ', 'more'] } as const;
    const s = await serve([{ ...step, stallAfterBytes: eventOffset(replySse(step), 'more') }]);
    const controller = new AbortController();
    const events: TurnEvent[] = [];
    const done = new Promise<void>((resolve, reject) =>
      agentOn(s)
        .run({ message: 'hello', signal: controller.signal })
        .subscribe({
          next: (event) => {
            events.push(event);
            if (event.type === 'text-delta') controller.abort();
          },
          error: reject,
          complete: resolve,
        }),
    );
    await s.clientClosed(0);
    await done;
    expect(s.requests[0].closedByClient).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'cancelled' });
  });
});
