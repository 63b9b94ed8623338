/**
 * `npx tsx examples/otel.ts`: an agent turn traced with OpenTelemetry, without any network.
 *
 * The setup is the one you would use in production: the Node SDK, a span processor and an
 * exporter. Here the exporter prints each span to the console; point it at your collector by
 * swapping in `new OTLPTraceExporter({ url: 'http://localhost:4318/v1/traces' })` from
 * `@opentelemetry/exporter-trace-otlp-http`. The turn runs three tools in parallel, one of which
 * fails, so you see `invoke_agent` with its `chat` and `execute_tool` children, and `error.type`
 * on the failed tool. Tool arguments and results are recorded (scrubbed) because this example
 * opts in with `telemetry: { captureContent: true }`; leave that out to record no content.
 */
import { trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ConsoleSpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { createAgent, defineTool, progressLine } from '../src/index.js';
import { scriptedModel } from '../src/testing/index.js';

process.env.OTEL_METRICS_EXPORTER ??= 'none';
process.env.OTEL_LOGS_EXPORTER ??= 'none';

/** Prints one line per span (the full ConsoleSpanExporter output is much longer). */
class OneLineConsoleExporter extends ConsoleSpanExporter {
  override export(spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    for (const span of spans) {
      const attributes = Object.entries(span.attributes).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
      console.log(`span  ${span.name}  [${span.spanContext().spanId} ← ${span.parentSpanContext?.spanId ?? 'root'}]  ${attributes.join(' ')}`);
    }
    done({ code: 0 });
  }
}

const sdk = new NodeSDK({
  serviceName: 'rx-tool-loop-example',
  spanProcessors: [new SimpleSpanProcessor(new OneLineConsoleExporter())],
  instrumentations: [],
});
sdk.start();

const weather = defineTool({
  name: 'weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `${city}: light rain, 12°C`,
});
const stocks = defineTool({
  name: 'stocks',
  description: 'Latest quote for a ticker',
  parameters: z.object({ ticker: z.string() }),
  execute: async () => {
    throw new Error('market data feed unavailable (api_key=demo-key-123456 rejected)');
  },
});
const news = defineTool({
  name: 'news',
  description: 'Top headline',
  parameters: z.object({}),
  execute: async () => 'Local library extends opening hours',
});

const agent = createAgent({
  name: 'briefing',
  provider: scriptedModel([
    {
      text: 'Checking all three.',
      toolCalls: [
        { id: 'call_weather', name: 'weather', arguments: { city: 'Oslo' } },
        { id: 'call_stocks', name: 'stocks', arguments: { ticker: 'ACME' } },
        { id: 'call_news', name: 'news', arguments: {} },
      ],
      usage: { inputTokens: 120, outputTokens: 40 },
    },
    { text: 'Light rain in Oslo; stock data is unavailable; the library is open longer.', usage: { inputTokens: 210, outputTokens: 18 } },
  ]),
  model: 'scripted-model',
  tools: [weather, stocks, news],
  knobs: { parallelTools: true },
  tracer: trace.getTracer('rx-tool-loop-example'),
  telemetry: { captureContent: true },
});

agent.run({ message: 'Morning briefing, please.' }).subscribe({
  next: (event) => {
    const line = progressLine(event); // the chat-surface view of the same events
    if (line) console.log(`progress  ${line}`);
    if (event.type === 'done') console.log(`answer  ${event.text}`);
  },
  error: (err: unknown) => console.error(err),
  complete: () => void sdk.shutdown(), // flushes every span before the process exits
});
