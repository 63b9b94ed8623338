import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ObserverEvent, progressLines } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { leakedWindows, type SecretSample, secretsCorpus } from '../fixtures/secrets-corpus.js';

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
afterAll(() => tracerProvider.shutdown());

/** One real turn in which a tool returns the secret, another fails with it, and the model passed it as an argument. */
async function turnWith(sample: SecretSample) {
  exporter.reset();
  const logLines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  const observed: ObserverEvent[] = [];
  const readConfig = defineTool({
    name: 'read_config',
    description: 'reads a config file',
    parameters: z.object({ path: z.string(), content: z.string() }),
    execute: () => sample.text,
  });
  const deploy = defineTool({
    name: 'deploy',
    description: 'deploys',
    parameters: z.object({}),
    execute: () => ({ success: false, output: '', error: sample.text }),
  });
  const agent = createAgent({
    name: 'ops',
    provider: scriptedModel([
      {
        toolCalls: [
          { id: 'call-read', name: 'read_config', arguments: { path: '/etc/app.env', content: sample.text } },
          { id: 'call-deploy', name: 'deploy', arguments: {} },
        ],
      },
      { text: 'done' },
    ]),
    model: 'm',
    tools: [readConfig, deploy],
    knobs: { parallelTools: true },
    observers: [(e) => observed.push(e)],
    logger,
    tracer: tracerProvider.getTracer('secrets'),
    telemetry: { captureContent: true },
  });
  const events = await lastValueFrom(agent.run({ message: 'check the config and deploy' }).pipe(toArray()));
  const progress = await lastValueFrom(from(events).pipe(progressLines(), toArray()));
  await tracerProvider.forceFlush();
  const spans = exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, status: s.status, events: s.events }));
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('the turn did not end with done');
  return {
    surfaces: {
      logs: logLines.join(''),
      'observer events': JSON.stringify(observed),
      'progress lines': progress.join('\n'),
      'span attributes': JSON.stringify(spans),
      'tool-result events': JSON.stringify(events.filter((e) => e.type === 'tool-result')),
      'tool-call cards': JSON.stringify(events.filter((e) => e.type === 'tool-call')),
    },
    counts: { logs: logLines.length, observed: observed.length, progress: progress.length, spans: spans.length },
    history: done.history,
  };
}

describe('secrets are absent from every rendering surface and present, unchanged, in history', () => {
  const corpus = secretsCorpus();

  it.each(corpus.map((s) => [s.name, s] as const))('%s', async (_, sample) => {
    const { surfaces, counts, history } = await turnWith(sample);
    expect(counts).toEqual({ logs: expect.any(Number), observed: 4, progress: 4, spans: 5 });
    expect(counts.logs).toBeGreaterThanOrEqual(8);
    for (const [surface, text] of Object.entries(surfaces)) {
      expect({ surface, leaked: leakedWindows(text, sample.secret) }).toEqual({ surface, leaked: [] });
    }
    const tools = history.filter((m) => m.role === 'tool');
    expect(tools).toEqual([
      { role: 'tool', tool_call_id: 'call-read', content: sample.text },
      { role: 'tool', tool_call_id: 'call-deploy', content: `Error: ${sample.text}`, isError: true },
    ]);
    const assistant = history.find((m) => m.role === 'assistant' && m.tool_calls);
    const args = assistant?.role === 'assistant' ? JSON.parse(assistant.tool_calls![0].function.arguments) : undefined;
    expect(args).toEqual({ path: '/etc/app.env', content: sample.text });
  });
});
