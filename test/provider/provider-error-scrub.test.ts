import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import OpenAI from 'openai';
import pino from 'pino';
import { Observable, throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, openAIChatProvider, ProviderError, scrubCredentials, type ModelProvider } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import { leakedWindows, secretsCorpus } from '../fixtures/secrets-corpus.js';

/** Issue 16, item 6: the error a caller sees of a provider that echoes a key is scrubbed whole, and so is what logs and spans keep of it. */

const KEY = secretsCorpus().find((s) => s.name.startsWith('OpenAI project key'))!.secret;
/** A gateway's key that looks like no token: only the client's own key redaction catches it. */
const PLAIN_KEY = 'gateway-pass-phrase-for-tests';

/** Every text a caller can get out of an error: message, stack, JSON, and the same of each cause. */
function surfaces(err: unknown): string[] {
  const out: string[] = [];
  let at: unknown = err;
  for (let depth = 0; at !== undefined && at !== null && depth < 10; depth++) {
    if (at instanceof Error) out.push(at.message, at.stack ?? '', JSON.stringify(at), String(at));
    else out.push(typeof at === 'string' ? at : JSON.stringify(at));
    at = (at as { cause?: unknown }).cause;
  }
  return out;
}
const leaks = (err: unknown, key = KEY) => surfaces(err).flatMap((text) => leakedWindows(text, key));
const failing = (thrown: () => unknown): ModelProvider => ({ name: 'p', nativeTools: true, request: () => throwError(thrown) });
const errorOfTurn = (agent: ReturnType<typeof createAgent>) => agent.complete({ message: 'go' }).then(() => expect.fail('the turn completed'), (err: unknown) => err);

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a real OpenAI client whose server echoes the key in its error body', () => {
  it.each([
    [401, (k: string) => `Incorrect API key provided: ${k}. You can find your API key at https://platform.openai.com.`],
    [401, (k: string) => `key ${k} rejected; retry with ${k}`],
    [403, (k: string) => `{"detail":"forbidden for ${k}"}`],
    [500, (k: string) => `upstream saw Authorization: Bearer ${k}`],
  ])('HTTP %i: message, stack, cause chain (the SDK error and its body) and JSON hold no piece of the key', async (status, body) => {
    server = await startOpenAIServer([{ kind: 'http-error', status, message: body(KEY) }]);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0, logLevel: 'off' });
    const err = await errorOfTurn(createAgent({ provider: openAIChatProvider(client), model: 'm', tools: [] }));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(status);
    expect((err as ProviderError).cause).toBeInstanceOf(OpenAI.APIError); // still the SDK's class, scrubbed
    expect(JSON.stringify((err as ProviderError).cause)).toContain('[REDACTED]'); // its body is there, scrubbed
    expect(leaks(err)).toEqual([]);
  });

  it('a key that looks like no token is redacted as the client’s own, in the cause chain too, also after a retry', async () => {
    expect(scrubCredentials(`key ${PLAIN_KEY}`)).toBe(`key ${PLAIN_KEY}`); // the scrubber alone would keep it
    const step = { kind: 'http-error' as const, status: 401, message: `Incorrect API key provided: ${PLAIN_KEY}` };
    server = await startOpenAIServer([step, step]);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: PLAIN_KEY, maxRetries: 1, logLevel: 'off' });
    const err = await errorOfTurn(createAgent({ provider: openAIChatProvider(client), model: 'm', tools: [] }));
    expect((err as Error).message).toContain('Incorrect API key provided: [REDACTED]');
    expect(leaks(err, PLAIN_KEY)).toEqual([]);
  });

  it('pino (the agent’s logger, and a caller logging the error it got) and the OpenTelemetry spans record no piece of the key', async () => {
    server = await startOpenAIServer([{ kind: 'http-error', status: 401, message: `Incorrect API key provided: ${KEY}` }]);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0, logLevel: 'off' });
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (s: string) => void lines.push(s) });
    const exporter = new InMemorySpanExporter();
    const tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const agent = createAgent({ provider: openAIChatProvider(client), model: 'm', tools: [], logger, tracer: tracing.getTracer('t') });
    const err = await errorOfTurn(agent);
    logger.error({ err }, 'the turn failed'); // pino's own error serializer, cause included
    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans();
    await tracing.shutdown();
    expect(spans.some((s) => s.events.some((e) => e.name === 'exception'))).toBe(true);
    expect(lines.some((l) => l.includes('[REDACTED]'))).toBe(true);
    const recorded = JSON.stringify(spans.map((s) => ({ attributes: s.attributes, status: s.status, events: s.events })));
    expect({ pino: leakedWindows(lines.join('\n'), KEY), spans: leakedWindows(recorded, KEY) }).toEqual({ pino: [], spans: [] });
  });
});

describe('any provider’s failure reaches the caller scrubbed', () => {
  const causeWithBody = () => Object.assign(new Error(`upstream: ${KEY}`), { body: { detail: `bad key ${KEY}`, headers: [`Bearer ${KEY}`] } });
  it.each<[string, () => unknown]>([
    ['an Error echoing the key', () => new Error(`Incorrect API key provided: ${KEY}`)],
    ['a non-Error with the key in its fields', () => ({ status: 401, error: { message: `Incorrect API key provided: ${KEY}` } })],
    ['a string', () => `401 ${KEY}`],
    ['its own ProviderError, the key in its message and its cause', () => new ProviderError(`rejected ${KEY}`, { status: 401, cause: causeWithBody() })],
    ['an Error three causes deep, with an enumerable body', () => new Error('outer', { cause: new Error('middle', { cause: causeWithBody() }) })],
  ])('%s', async (_, thrown) => {
    const err = await errorOfTurn(createAgent({ provider: failing(thrown), model: 'm', tools: [] }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(surfaces(err).join('\n')).toContain('[REDACTED]');
    expect(leaks(err)).toEqual([]);
  });

  it('a provider whose request throws at once, and a scripted step that fails, alike', async () => {
    const throwing: ModelProvider = {
      name: 'p',
      nativeTools: true,
      request: () => {
        throw new Error(`no: ${KEY}`);
      },
    };
    const scripted = scriptedModel([new Observable<never>((s) => s.error(new TypeError(`key ${KEY}`, { cause: { key: KEY } })))]);
    for (const provider of [throwing, scripted]) {
      const err = await errorOfTurn(createAgent({ provider, model: 'm', tools: [] }));
      expect(err).toBeInstanceOf(ProviderError);
      expect(leaks(err)).toEqual([]);
    }
  });

  it('an error with nothing to scrub is passed on as it is, its cause the very value thrown', async () => {
    const cause = new TypeError('socket hang up');
    const err = await errorOfTurn(createAgent({ provider: failing(() => cause), model: 'm', tools: [] }));
    expect((err as ProviderError).cause).toBe(cause);
  });
});
