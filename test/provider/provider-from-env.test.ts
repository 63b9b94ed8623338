import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { providerFromEnv } from '../../examples/provider-from-env.js';
import { ConfigurationError, createAgent, defineTool, ProviderError } from '../../src/index.js';
import { startAnthropicServer } from '../fixtures/anthropic-server.js';
import { startOpenAIServer, type ServerStep } from '../fixtures/openai-server.js';
import { startResponsesServer } from '../fixtures/responses-server.js';

describe('The demo picks a real model from OPENAI_BASE_URL, OPENAI_API_KEY and RTL_MODEL', () => {
  it('without a base URL or a key it returns undefined (the demo stays scripted)', () => {
    expect(providerFromEnv({})).toBeUndefined();
    expect(providerFromEnv({ RTL_MODEL: 'llama3.2', OPENAI_API_KEY: '  ' })).toBeUndefined();
  });

  it('with a key only it targets OpenAI with gpt-4o-mini unless RTL_MODEL says otherwise', () => {
    expect(providerFromEnv({ OPENAI_API_KEY: 'sk-test' })).toMatchObject({ model: 'gpt-4o-mini', provider: { name: 'openai', nativeTools: true } });
    expect(providerFromEnv({ OPENAI_API_KEY: 'sk-test', RTL_MODEL: 'gpt-4.1' })?.model).toBe('gpt-4.1');
  });

  it('a base URL without RTL_MODEL is a configuration error that says what to set', () => {
    expect(() => providerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(ConfigurationError);
    expect(() => providerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(/RTL_MODEL/);
  });

  it('RTL_TOOL_PROTOCOL=text wraps the provider in the text tool protocol', () => {
    const chosen = providerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', RTL_MODEL: 'tiny', RTL_TOOL_PROTOCOL: 'text' });
    expect(chosen?.provider.nativeTools).toBe(false);
    expect(chosen?.description).toBe('tiny at http://127.0.0.1:1/v1 (text tool protocol)');
  });

  it('runs a whole turn against an OpenAI-compatible server with a real client', async () => {
    const server = await startOpenAIServer([
      { kind: 'reply', toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"hi"}' }] },
      { kind: 'reply', text: 'It said hi.' },
    ]);
    try {
      const chosen = providerFromEnv({ OPENAI_BASE_URL: server.baseURL, RTL_MODEL: 'local-model' });
      const echo = defineTool({ name: 'echo', description: 'echo', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
      const out = await createAgent({ provider: chosen!.provider, model: chosen!.model, tools: [echo] }).complete({ message: 'say hi' });
      expect(out.text).toBe('It said hi.');
      expect(server.requests.map((r) => [r.body.model, r.headers.authorization])).toEqual([
        ['local-model', 'Bearer not-needed'],
        ['local-model', 'Bearer not-needed'],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('RTL_STREAM=0 turns streaming off, also with native tool calls', () => {
  const echo = defineTool({ name: 'echo', description: 'echo', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
  // A server that fails every streaming request and answers non-streaming ones.
  const noStreaming = (body: any, n: number): ServerStep =>
    body?.stream === true
      ? { kind: 'http-error', status: 500, message: 'streaming is not supported' }
      : n % 2 === 0
        ? { kind: 'reply', toolCalls: [{ id: `c${n}`, name: 'echo', arguments: '{"text":"hi"}' }] }
        : { kind: 'reply', text: 'It said hi.' };

  it('the description says so, and streaming stays the default', () => {
    const off = providerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', RTL_MODEL: 'tiny', RTL_STREAM: '0' });
    expect(off?.provider.nativeTools).toBe(true);
    expect(off?.description).toBe('tiny at http://127.0.0.1:1/v1 (no streaming)');
    const both = providerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', RTL_MODEL: 'tiny', RTL_STREAM: 'off', RTL_TOOL_PROTOCOL: 'text' });
    expect(both?.description).toBe('tiny at http://127.0.0.1:1/v1 (text tool protocol, no streaming)');
    expect(providerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', RTL_MODEL: 'tiny', RTL_STREAM: '1' })?.description).toBe('tiny at http://127.0.0.1:1/v1');
  });

  it('a whole native-tool turn runs against a server that fails streaming, with non-streaming requests only', async () => {
    const server = await startOpenAIServer(noStreaming);
    try {
      const chosen = providerFromEnv({ OPENAI_BASE_URL: server.baseURL, RTL_MODEL: 'local-model', RTL_STREAM: '0' });
      const out = await createAgent({ provider: chosen!.provider, model: chosen!.model, tools: [echo] }).complete({ message: 'say hi' });
      expect(out.text).toBe('It said hi.');
      expect(server.requests.map((r) => r.body.stream)).toEqual([false, false]);
      expect(server.requests[0].body.tools.map((t: any) => t.function.name)).toEqual(['echo']);
    } finally {
      await server.close();
    }
  });

  it('with streaming on, the same server reports its first failure, not the 404 of a retry', async () => {
    const server = await startOpenAIServer((body, n) => (n === 0 ? noStreaming(body, n) : { kind: 'http-error', status: 404, message: 'Not Found' }));
    try {
      const chosen = providerFromEnv({ OPENAI_BASE_URL: server.baseURL, RTL_MODEL: 'local-model' });
      const error = await createAgent({ provider: chosen!.provider, model: chosen!.model, tools: [echo] })
        .complete({ message: 'say hi' })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).status).toBe(500);
      expect((error as ProviderError).message).toMatch(/^Provider 'openai-compatible' failed \(HTTP 500\): streaming is not supported \(the retry failed too/);
    } finally {
      await server.close();
    }
  });
});

describe('RTL_PROVIDER picks the vendor API: openai (default), responses or anthropic', () => {
  const echo = defineTool({ name: 'echo', description: 'echo', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });

  it('an unknown vendor is a configuration error that lists the known ones', () => {
    expect(() => providerFromEnv({ RTL_PROVIDER: 'gemini', OPENAI_API_KEY: 'k' })).toThrow(/RTL_PROVIDER must be one of openai, responses, anthropic; got 'gemini'/);
  });

  it('each vendor reads its own variables and has its own default model', () => {
    expect(providerFromEnv({ RTL_PROVIDER: 'anthropic', OPENAI_API_KEY: 'k' })).toBeUndefined();
    expect(providerFromEnv({ RTL_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'k' })).toMatchObject({
      model: 'claude-sonnet-4-5',
      provider: { name: 'anthropic', telemetryName: 'anthropic', nativeTools: true },
      description: 'claude-sonnet-4-5 at api.anthropic.com (Messages API)',
    });
    expect(providerFromEnv({ RTL_PROVIDER: 'Responses', OPENAI_API_KEY: 'k' })).toMatchObject({ model: 'gpt-4o-mini', provider: { name: 'openai-responses', telemetryName: 'openai' } });
    expect(() => providerFromEnv({ RTL_PROVIDER: 'anthropic', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' })).toThrow(/ANTHROPIC_BASE_URL is set but RTL_MODEL is not/);
  });

  it('RTL_PROVIDER=responses runs a whole turn through the Responses API with a real client', async () => {
    const server = await startResponsesServer([
      { kind: 'reply', toolCalls: [{ callId: 'c1', name: 'echo', arguments: '{"text":"hi"}' }] },
      { kind: 'reply', text: 'It said hi.' },
    ]);
    try {
      const chosen = providerFromEnv({ RTL_PROVIDER: 'responses', OPENAI_BASE_URL: server.baseURL, RTL_MODEL: 'local-model' });
      const out = await createAgent({ provider: chosen!.provider, model: chosen!.model, tools: [echo] }).complete({ message: 'say hi' });
      expect(out.text).toBe('It said hi.');
      expect(server.requests.map((r) => [r.url, r.body.model])).toEqual([
        ['/v1/responses', 'local-model'],
        ['/v1/responses', 'local-model'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('RTL_PROVIDER=anthropic runs a whole turn through the Messages API with a real client', async () => {
    const server = await startAnthropicServer([
      { kind: 'reply', content: [{ type: 'tool_use', id: 't1', name: 'echo', input: '{"text":"hi"}' }] },
      { kind: 'reply', content: [{ type: 'text', text: 'It said hi.' }] },
    ]);
    try {
      const chosen = providerFromEnv({ RTL_PROVIDER: 'anthropic', ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'sk-ant-x', RTL_MODEL: 'claude-local' });
      const out = await createAgent({ provider: chosen!.provider, model: chosen!.model, tools: [echo] }).complete({ message: 'say hi' });
      expect(out.text).toBe('It said hi.');
      expect(server.requests.map((r) => [r.url, r.body.model])).toEqual([
        ['/v1/messages', 'claude-local'],
        ['/v1/messages', 'claude-local'],
      ]);
    } finally {
      await server.close();
    }
  });
});
