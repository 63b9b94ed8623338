import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Tracer } from '@opentelemetry/api';

/**
 * An OpenTelemetry tracer of the SDK's `BasicTracerProvider` whose span processor drops every
 * span at its end: what the loop and the SDK spend on spans, without an exporter's. Used by
 * configurations.ts and instructions.ts `--tracer`.
 *
 * @example
 * ```ts
 * const agent = createAgent({ provider, model, tools, tracer: droppingTracer() });
 * ```
 */
export function droppingTracer(): Tracer {
  const drop = (): void => {};
  const dropSpans: SpanProcessor = { onStart: drop, onEnd: drop, forceFlush: async () => {}, shutdown: async () => {} };
  return new BasicTracerProvider({ spanProcessors: [dropSpans] }).getTracer('bench');
}
