import type { Subscriber } from 'rxjs';
import { abortableRequest } from '../abortable-request.js';
import { ConfigurationError, ProviderError } from '../../core/errors.js';
import type { ToolSpec } from '../../core/tool.js';
import type { ModelProvider, ProviderEvent, ProviderRequest } from '../provider.js';
import { aiSdkError } from './ai-sdk-error.js';
import type { AiSdkCallOptions, AiSdkExtraCallOptions, AiSdkFunctionTool, AiSdkLanguageModel, AiSdkSharedOptions, AiSdkStreamPart } from './ai-sdk-model.js';
import { aiSdkPrompt } from './ai-sdk-prompt.js';
import { withAiSdkRetries } from './ai-sdk-retries.js';
import { AiSdkStreamReader } from './ai-sdk-stream-reader.js';
import { serverOf } from '../server-of.js';
import { aiSdkTelemetryName } from './ai-sdk-telemetry-name.js';

/** Options of `aiSdkProvider`. */
export interface AiSdkProviderOptions {
  /** The provider's name in errors and logs. Default: the model's `provider` id (`'openai.chat'`). */
  readonly name?: string;
  /** `gen_ai.provider.name` in spans. Default: the model's provider id as a GenAI conventions name (`'openai.chat'` → `'openai'`). */
  readonly telemetryName?: string;
  /** The base URL the model sends its requests to, for `server.address` / `server.port` in spans (a model does not tell). */
  readonly baseURL?: string;
  /** Provider-specific options sent with every request (`{ openai: { user: 'u1' } }`). */
  readonly providerOptions?: AiSdkSharedOptions;
  /** Other call options sent with every request (`maxOutputTokens`, `topP`, `headers`, …). */
  readonly callOptions?: AiSdkExtraCallOptions;
  /** Retries of a request that failed before its stream began, when the AI SDK marks the failure retryable. Default 2, as `streamText`. */
  readonly maxRetries?: number;
  /**
   * The model for a request that names another model id than `model.modelId` (a tool's
   * `switchModel`), e.g. `(id) => openai(id)`. Without it, every request goes to `model`.
   */
  readonly modelFor?: (modelId: string) => AiSdkLanguageModel;
}

const VERSIONS = new Set(['v2', 'v3', 'v4']);

/**
 * A native-tool provider over any AI SDK language model (specification v2, v3 or v4), so every
 * `@ai-sdk/*` provider package works. It streams through the model's `doStream`: text deltas go
 * out as they arrive, reasoning blocks as `reasoning` events (sent back with the next request),
 * tool-argument fragments as `tool-call-delta` events, then the complete tool calls, usage and the
 * finish (reason, response id and model). The signal (and unsubscribing) aborts the request.
 * Failures — an HTTP error (after `maxRetries` retries of retryable ones), no response, a
 * connection lost mid-stream, an `error` part, a stream without its `finish` part — error with a
 * `ProviderError` (`status` set for HTTP errors), scrubbed.
 *
 * ```
 * model:   -s-t-t-i-i-c-f|            (stream-start, text, tool input, tool-call, finish)
 * events:  ---t-t-d-d---(c u f|)      (text-delta…, tool-call-delta…, then tool-call…, usage, finish)
 * ```
 * @example
 * ```ts
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
 * const ollama = createOpenAICompatible({ name: 'ollama', baseURL: 'http://localhost:11434/v1' });
 * const provider = aiSdkProvider(ollama.chatModel('qwen3:8b'));
 * const agent = createAgent({ provider, model: 'qwen3:8b', tools: [calculator] });
 * ```
 * @param model an AI SDK `LanguageModel`, typed structurally as `AiSdkLanguageModel`, so the
 *   library's types never need `@ai-sdk/provider` installed.
 * @return a `ModelProvider` with `nativeTools: true`.
 */
export function aiSdkProvider(model: AiSdkLanguageModel, opts: AiSdkProviderOptions = {}): ModelProvider {
  checkVersion(model);
  const maxRetries = opts.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new ConfigurationError(`aiSdkProvider's maxRetries must be a whole number of 0 or more (got ${String(maxRetries)}).`);
  const name = opts.name ?? (model.provider || 'ai-sdk');
  const wrapped = new WeakMap<ToolSpec, AiSdkFunctionTool>();
  const toolOf = (spec: ToolSpec): AiSdkFunctionTool => {
    let tool = wrapped.get(spec);
    if (tool === undefined) {
      tool = Object.freeze({ type: 'function' as const, name: spec.name, description: spec.description, inputSchema: spec.parameters });
      wrapped.set(spec, tool);
    }
    return tool;
  };

  const modelOf = (id: string): AiSdkLanguageModel => {
    if (opts.modelFor === undefined || id === model.modelId) return model;
    return checkVersion(opts.modelFor(id));
  };

  const callOptions = (req: ProviderRequest, signal: AbortSignal): AiSdkCallOptions => {
    const out: AiSdkCallOptions = { ...opts.callOptions, prompt: aiSdkPrompt(req.messages), abortSignal: signal };
    if (req.tools && req.tools.length > 0) out.tools = req.tools.map(toolOf);
    if (req.temperature !== undefined) out.temperature = req.temperature;
    if (opts.providerOptions !== undefined) out.providerOptions = opts.providerOptions;
    if (req.output !== undefined) out.responseFormat = { type: 'json', schema: req.output.schema, name: req.output.name };
    return out;
  };

  const cancelled = (): ProviderError => new ProviderError(`Provider '${name}' failed: the request was cancelled.`);

  async function streamInto(req: ProviderRequest, controller: AbortController, subscriber: Subscriber<ProviderEvent>, keep: (reader: ReadableStreamDefaultReader<AiSdkStreamPart>) => void): Promise<void> {
    if (controller.signal.aborted) return subscriber.error(cancelled());
    let stream: ReadableStream<AiSdkStreamPart>;
    try {
      const target = modelOf(req.model);
      const options = callOptions(req, controller.signal);
      ({ stream } = await withAiSdkRetries(maxRetries, controller.signal, () => target.doStream(options)));
    } catch (err) {
      return fail(subscriber, err, 'request', controller.signal);
    }
    if (subscriber.closed) return void stream.cancel().catch(() => undefined);
    const reader = stream.getReader();
    keep(reader);
    const parts = new AiSdkStreamReader(name, (event) => subscriber.next(event));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (subscriber.closed) return;
        if (done) break;
        parts.read(value);
      }
    } catch (err) {
      return fail(subscriber, err, 'stream', controller.signal);
    }
    if (controller.signal.aborted) return subscriber.error(cancelled());
    const failure = parts.end();
    if (failure !== undefined) subscriber.error(failure);
    else subscriber.complete();
  }

  function fail(subscriber: Subscriber<ProviderEvent>, err: unknown, phase: 'request' | 'stream', signal: AbortSignal): void {
    if (subscriber.closed) return;
    subscriber.error(signal.aborted && !(err instanceof ProviderError) ? cancelled() : aiSdkError(name, err, phase));
  }

  const server = serverOf(opts.baseURL);
  return {
    name,
    telemetryName: opts.telemetryName ?? aiSdkTelemetryName(model.provider || name),
    ...(server ? { server } : {}),
    nativeTools: true,
    request: (req, signal) =>
      abortableRequest(signal, (controller, subscriber) => {
        let reader: ReadableStreamDefaultReader<AiSdkStreamPart> | undefined;
        void streamInto(req, controller, subscriber, (r) => (reader = r)).catch((err: unknown) => fail(subscriber, err, 'stream', controller.signal));
        return () => void reader?.cancel().catch(() => undefined);
      }),
  };
}

/** The model itself, when it implements a specification this provider reads. */
function checkVersion(model: AiSdkLanguageModel): AiSdkLanguageModel {
  const version = (model as { specificationVersion?: unknown } | null)?.specificationVersion;
  if (typeof model?.doStream !== 'function' || !VERSIONS.has(String(version))) {
    throw new ConfigurationError(`aiSdkProvider takes an AI SDK language model of specification v2, v3 or v4 (this one implements ${JSON.stringify(version) ?? 'none'}).`);
  }
  return model;
}
