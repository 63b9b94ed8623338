import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, progressLine, type ObserverEvent } from '../../src/index.js';
import { createReceiptGenerator } from '../../src/results/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { secretsCorpus, secretWindows } from '../fixtures/secrets-corpus.js';
import { expectHealthyTurn, runTurn } from './turn-runner.js';

/**
 * Invariant 6: a secret that a tool returns, or that the model passes as an argument, is
 * scrubbed on every rendering surface — log lines, observer events, progress lines, span
 * attributes (content capture on), `tool-result.output` — while the model-visible history keeps
 * it verbatim and receipts are made over the unscrubbed result.
 */

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
afterAll(() => tracerProvider.shutdown());

/** A logger that keeps every line (at every level, through child loggers too). */
function recordingLogger(lines: unknown[], bindings: Record<string, unknown> = {}) {
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, ...bindings, ...obj, msg });
  const logger: Record<string, unknown> = {
    debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'),
    isLevelEnabled: () => true,
    child: (more: Record<string, unknown>) => recordingLogger(lines, { ...bindings, ...more }),
  };
  return logger as never;
}

describe('secrets are scrubbed on every rendering surface; history and receipts keep the real value', () => {
  it.each(secretsCorpus().map((s) => [s.name, s] as const))('%s', async (_name, sample) => {
    exporter.reset();
    const receipts = createReceiptGenerator();
    const tools = [
      defineTool({ name: 'reveal', description: 'returns a secret', parameters: z.object({ note: z.string() }), execute: () => sample.text }),
      defineTool({ name: 'fail_with', description: 'fails with a secret', parameters: z.object({}), execute: () => ({ success: false, output: sample.text }) }),
    ];
    const model = scriptedModel([
      { toolCalls: [{ id: 'r', name: 'reveal', arguments: { note: sample.text } }, { id: 'f', name: 'fail_with', arguments: {} }] },
      { text: 'done' },
    ]);
    const logLines: unknown[] = [];
    const observed: ObserverEvent[] = [];
    const agent = createAgent({
      provider: model,
      model: 'm',
      tools,
      receipts,
      logger: recordingLogger(logLines),
      tracer: tracerProvider.getTracer('reliability'),
      telemetry: { captureContent: true },
      observers: [(e) => void observed.push(e)],
    });
    const run = await runTurn(agent, { message: 'go', ingress: { channel: 'cli', turnId: 'turn-s' } });
    expect(run.error).toBeUndefined();
    await tracerProvider.forceFlush();

    const rendered = {
      toolResults: run.events.flatMap((e) => (e.type === 'tool-result' ? [e.output] : [])),
      toolCallArgs: run.events.flatMap((e) => (e.type === 'tool-call' ? [e.args] : [])),
      observers: observed,
      progress: run.events.map((e) => progressLine(e)).filter((line) => line !== undefined),
      logs: logLines,
      spans: exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })),
    };
    expect(rendered.progress.length).toBeGreaterThan(0);
    expect(rendered.spans.some((s) => s.name.startsWith('execute_tool'))).toBe(true);
    // The windows are made of characters JSON leaves as they are, so JSON text can be searched.
    const leaks = (value: unknown) => secretWindows(sample.secret).filter((w) => JSON.stringify(value).includes(w));
    for (const [surface, value] of Object.entries(rendered)) expect({ surface, leaked: leaks(value) }).toEqual({ surface, leaked: [] });

    const history = run.done!.history;
    expect(leaks(history).length).toBeGreaterThan(0); // the detector sees the secret where it must stay
    const contents = history.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
    expect(contents[0].startsWith(sample.text)).toBe(true);
    expect(contents[1]).toBe(`Error: ${sample.text}`);
    expect(JSON.stringify(history)).toContain(JSON.stringify(sample.text).slice(1, -1));
    const receipt = run.events.find((e) => e.type === 'tool-result' && e.name === 'reveal') as { receipt?: string };
    expect(receipts.verify(receipt.receipt!, { turnId: 'turn-s', callId: 'r', name: 'reveal', args: { note: sample.text }, result: sample.text })).toBe(true);
    expectHealthyTurn(run, model.requests);
  });
});
