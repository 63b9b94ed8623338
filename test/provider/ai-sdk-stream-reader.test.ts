import { describe, expect, it } from 'vitest';
import { ProviderError, type ProviderEvent } from '../../src/index.js';
import { AiSdkStreamReader } from '../../src/provider/ai-sdk/ai-sdk-stream-reader.js';
import { aiSdkTelemetryName } from '../../src/provider/ai-sdk/ai-sdk-telemetry-name.js';

/** The events a reader makes of these stream parts, and the error `end()` returns. */
function read(parts: readonly object[]): { events: ProviderEvent[]; failure?: ProviderError } {
  const events: ProviderEvent[] = [];
  const reader = new AiSdkStreamReader('spec.model', (event) => events.push(event));
  for (const part of parts) reader.read(part);
  const failure = reader.end();
  return failure === undefined ? { events } : { events, failure };
}

const v3Finish = (unified: string, raw: string | undefined, input?: number, output?: number) => ({
  type: 'finish',
  finishReason: { unified, raw },
  usage: {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  },
});

describe('Stream parts of spec v2, v3 and v4 become provider events', () => {
  it('v3 and v4 usage ({ total }) and finish reason ({ unified, raw }): the raw reason first', () => {
    expect(read([v3Finish('tool-calls', 'tool_use', 12, 3)]).events).toEqual([
      { type: 'usage', inputTokens: 12, outputTokens: 3 },
      { type: 'finish', reason: 'tool_use' },
    ]);
    expect(read([v3Finish('stop', undefined)]).events).toEqual([{ type: 'finish', reason: 'stop' }]);
  });

  it('v2 usage (numbers) and finish reason (a string)', () => {
    const finish = { type: 'finish', finishReason: 'length', usage: { inputTokens: 7, outputTokens: undefined, totalTokens: 7 } };
    expect(read([finish]).events).toEqual([
      { type: 'usage', inputTokens: 7, outputTokens: 0 },
      { type: 'finish', reason: 'length' },
    ]);
  });

  it('a reasoning block keeps the provider metadata of all its parts, merged per provider (a signature comes last)', () => {
    const { events } = read([
      { type: 'reasoning-start', id: 'r0', providerMetadata: { anthropic: { redactedData: undefined } } },
      { type: 'reasoning-delta', id: 'r0', delta: 'Let me ' },
      { type: 'reasoning-delta', id: 'r0', delta: 'think.' },
      { type: 'reasoning-delta', id: 'r0', delta: '', providerMetadata: { anthropic: { signature: 'sig' } } },
      { type: 'reasoning-end', id: 'r0' },
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'Unclosed.' },
      v3Finish('stop', 'end_turn'),
    ]);
    expect(events.filter((e) => e.type === 'reasoning')).toEqual([
      { type: 'reasoning', part: { provider: 'ai-sdk', data: { text: 'Let me think.', providerMetadata: { anthropic: { redactedData: undefined, signature: 'sig' } } } } },
      { type: 'reasoning', part: { provider: 'ai-sdk', data: { text: 'Unclosed.' } } },
    ]);
  });

  it('a call the provider runs itself (providerExecuted) is neither streamed nor returned; a call without deltas still is returned', () => {
    const { events } = read([
      { type: 'tool-input-start', id: 'ws', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', id: 'ws', delta: '{"q":"x"}' },
      { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: '{"q":"x"}', providerExecuted: true },
      { type: 'tool-result', toolCallId: 'ws', toolName: 'web_search', result: { hits: [] } },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":1}' },
      v3Finish('tool-calls', 'tool_use'),
    ]);
    expect(events.filter((e) => e.type.startsWith('tool-call'))).toEqual([{ type: 'tool-call', id: 'c1', name: 'add', arguments: '{"a":1}' }]);
  });

  it('tool-call-delta events carry the call’s index in the response; the calls follow in that order', () => {
    const { events } = read([
      { type: 'tool-input-start', id: 'b', toolName: 'second' },
      { type: 'tool-input-start', id: 'a', toolName: 'first' },
      { type: 'tool-input-delta', id: 'a', delta: '{}' },
      { type: 'tool-input-delta', id: 'b', delta: '{"x":' },
      { type: 'tool-input-delta', id: 'b', delta: '1}' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'first', input: '{}' },
      { type: 'tool-call', toolCallId: 'b', toolName: 'second', input: '{"x":1}' },
      v3Finish('tool-calls', 'tool_calls'),
    ]);
    expect(events.filter((e) => e.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-delta', index: 1, id: 'a', name: 'first', argumentsDelta: '{}' },
      { type: 'tool-call-delta', index: 0, id: 'b', name: 'second', argumentsDelta: '{"x":' },
      { type: 'tool-call-delta', index: 0, id: 'b', name: 'second', argumentsDelta: '1}' },
      { type: 'tool-call', id: 'b', name: 'second', arguments: '{"x":1}' },
      { type: 'tool-call', id: 'a', name: 'first', arguments: '{}' },
    ]);
  });

  it('a call’s provider metadata (Gemini’s thought signature) comes out as an ai-sdk part, before the calls', () => {
    const { events } = read([
      { type: 'tool-input-start', id: 'c1', toolName: 'add' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"a":1}' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":1}', providerMetadata: { google: { thoughtSignature: 'sig' } } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'add', input: '{"a":2}' },
      v3Finish('tool-calls', 'STOP'),
    ]);
    expect(events.filter((e) => e.type !== 'tool-call-delta').map((e) => e.type)).toEqual(['reasoning', 'tool-call', 'tool-call', 'finish']);
    expect(events.find((e) => e.type === 'reasoning')).toEqual({
      type: 'reasoning',
      part: { provider: 'ai-sdk', data: { toolCallId: 'c1', providerMetadata: { google: { thoughtSignature: 'sig' } } } },
    });
  });

  it('an error part throws a ProviderError with the status of the APICallError it carries', () => {
    const reader = new AiSdkStreamReader('spec.model', () => undefined);
    const thrown = (() => {
      try {
        reader.read({ type: 'error', error: Object.assign(new Error('Overloaded'), { name: 'AI_APICallError', statusCode: 529 }) });
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(ProviderError);
    expect(thrown).toMatchObject({ status: 529, message: "Provider 'spec.model' failed: the server reported an error mid-stream: Overloaded" });
  });

  it('a stream that ends without its finish part is an error, and emits no calls', () => {
    const { events, failure } = read([
      { type: 'text-delta', id: 't', delta: 'half an ans' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{}' },
    ]);
    expect(events).toEqual([{ type: 'text-delta', text: 'half an ans' }]);
    expect(failure?.message).toBe("Provider 'spec.model' failed: the stream ended before the response was complete (no finish part).");
  });

  it('parts it has no use for (stream-start, text-start, raw, source, file, ping) are skipped', () => {
    const { events } = read([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'raw', rawValue: {} },
      { type: 'source', sourceType: 'url', id: 's', url: 'https://example.com' },
      { type: 'ping' },
      { type: 'text-end', id: 't' },
      v3Finish('stop', 'stop'),
    ]);
    expect(events).toEqual([{ type: 'finish', reason: 'stop' }]);
  });
});

describe('The telemetry name of an AI SDK provider id', () => {
  it.each([
    ['openai.chat', 'openai'],
    ['openai.responses', 'openai'],
    ['anthropic.messages', 'anthropic'],
    ['google.generative-ai', 'gcp.gemini'],
    ['google.vertex.chat', 'gcp.vertex_ai'],
    ['vertex.anthropic.messages', 'gcp.vertex_ai'],
    ['amazon-bedrock', 'aws.bedrock'],
    ['azure.chat', 'azure.ai.openai'],
    ['mistral.chat', 'mistral_ai'],
    ['xai.chat', 'x_ai'],
    ['ollama.chat', 'ollama'],
  ])('%s → %s', (id, name) => {
    expect(aiSdkTelemetryName(id)).toBe(name);
  });
});
