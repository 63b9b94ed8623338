import type { Subscriber } from 'rxjs';
import { ProviderError } from '../core/errors.js';
import { thrownMessage } from '../core/read-thrown.js';
import { scrubErrorChain } from '../results/scrub-error-chain.js';
import type { ChatMessage } from '../core/messages.js';
import type { OpenAIToolSpec, ToolSpec } from '../core/tool.js';
import { abortableRequest } from './abortable-request.js';
import { withFirstFailure } from './first-failure-retries.js';
import { redactClientKey, toProviderError, truncatedStreamError } from './openai-error.js';
import type { ModelProvider, ProviderEvent, ProviderRequest } from './provider.js';
import type {
  OpenAIChatChunk,
  OpenAIChatClient,
  OpenAIChatCompletion,
  OpenAIChatNonStreamingBody,
  OpenAIChatStreamingBody,
  OpenAIUsage,
} from './openai-client.js';
import { serverOf } from './server-of.js';
import { ToolCallAssembler } from './tool-call-assembler.js';

/** Options of `openAIChatProvider`. */
export interface OpenAIChatProviderOptions {
  /** The provider's name in errors and logs. Default `'openai-chat'`. */
  readonly name?: string;
  /**
   * `gen_ai.provider.name` in spans (a GenAI conventions value). Default `'openai'`; a compatible
   * server may be named for what it is (e.g. `'deepseek'`, `'groq'`).
   */
  readonly telemetryName?: string;
  /** Stream the response (default `true`). `false` sends one non-streaming request. */
  readonly stream?: boolean;
  /** Ask for a final usage chunk (`stream_options.include_usage`). Default `true`. */
  readonly includeUsage?: boolean;
  /** Extra body parameters sent with every request (e.g. `max_tokens`, `parallel_tool_calls`). */
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * A native-tool provider over the OpenAI Chat Completions API, for OpenAI and any compatible
 * server (Ollama, vLLM, LM Studio, …). Streams by default: text deltas go out as they arrive,
 * tool-call fragments are assembled by index and emitted as complete calls when the stream ends,
 * followed by usage and the finish (its reason, and the response's `id` and `model` as the server
 * reported them). A request's `output` goes as `response_format` (`json_schema`, `strict: false`:
 * zod's JSON Schema is not always in OpenAI's strict subset). Telemetry names it `openai`, at the client's `baseURL`. The signal (and unsubscribing) aborts the HTTP request.
 * Failures — HTTP errors after the client's retries (as many as its `maxRetries`, one attempt at a
 * time, so the error reports the FIRST failure, and the last one too when it differs), a
 * connection lost mid-stream, a malformed stream event, a stream cut before its
 * `finish_reason` — error with a `ProviderError` (`status` set for HTTP errors).
 *
 * ```
 * server:  -c1-c2-c3-[DONE]|          (chunks: text, tool fragments, finish, usage)
 * events:  -t--t-----(c u f|)         (text-delta…, then tool-call…, usage, finish)
 * ```
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * const provider = openAIChatProvider(new OpenAI({ baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' }));
 * const agent = createAgent({ provider, model: 'qwen3:8b', tools: [calculator] });
 * ```
 * @param client a configured `openai` client (its `maxRetries` and `timeout` apply), typed
 *   structurally as `OpenAIChatClient`, so the library's types never need `openai` installed.
 * @return a `ModelProvider` with `nativeTools: true`.
 */
export function openAIChatProvider(client: OpenAIChatClient, opts: OpenAIChatProviderOptions = {}): ModelProvider {
  const name = opts.name ?? 'openai-chat';
  const streaming = opts.stream ?? true;
  const includeUsage = opts.includeUsage ?? true;
  const wrapped = new WeakMap<ToolSpec, OpenAIToolSpec>();
  const toolOf = (spec: ToolSpec): OpenAIToolSpec => {
    let tool = wrapped.get(spec);
    if (tool === undefined) {
      tool = Object.freeze({ type: 'function' as const, function: spec });
      wrapped.set(spec, tool);
    }
    return tool;
  };

  /**
   * The request's body: `params`, then the request's fields, then `stream` and its options, in
   * that order, set one by one rather than spread as `{ ...params, model, … }`
   * (bench/RESULTS.md, "Choices in src/ made for speed").
   */
  const body = (req: ProviderRequest, stream: boolean): Record<string, unknown> => {
    const { params } = opts;
    // Object.assign sets an own `__proto__` key as the prototype: such params keep the spread
    const out: Record<string, unknown> = params === undefined ? {} : Object.hasOwn(params, '__proto__') ? { ...params } : Object.assign({}, params);
    out.model = req.model;
    out.messages = chatWireMessages(req.messages);
    if (req.tools && req.tools.length > 0) out.tools = req.tools.map(toolOf);
    if (req.temperature !== undefined) out.temperature = req.temperature;
    if (req.output !== undefined) out.response_format = { type: 'json_schema', json_schema: { name: req.output.name, schema: req.output.schema, strict: false } };
    out.stream = stream;
    if (stream && includeUsage) out.stream_options = { include_usage: true };
    return out;
  };

  async function streamInto(req: ProviderRequest, controller: AbortController, subscriber: Subscriber<ProviderEvent>): Promise<void> {
    const params = body(req, true) as unknown as OpenAIChatStreamingBody;
    let stream: AsyncIterable<OpenAIChatChunk>;
    try {
      stream = await withFirstFailure(client, controller.signal, (options) => client.chat.completions.create(params, options));
    } catch (err) {
      return fail(subscriber, err, 'request');
    }
    const calls = new ToolCallAssembler();
    let finishReason: string | undefined;
    let usage: OpenAIUsage | null | undefined;
    const info: ResponseInfo = {};
    try {
      for await (const chunk of stream) {
        if (subscriber.closed) break;
        if (chunk.usage) usage = chunk.usage;
        if (typeof chunk.id === 'string' && chunk.id.length > 0) info.responseId ??= chunk.id;
        if (typeof chunk.model === 'string' && chunk.model.length > 0) info.responseModel ??= chunk.model;
        const choice = chunk.choices?.[0];
        if (choice === undefined) continue;
        const delta = choice.delta;
        if (delta?.content) subscriber.next({ type: 'text-delta', text: delta.content });
        if (delta?.refusal) subscriber.next({ type: 'text-delta', text: delta.refusal });
        if (delta?.tool_calls) {
          for (const part of delta.tool_calls) {
            calls.push(part);
            const fragment = part.function?.arguments;
            if (typeof part.index === 'number' && (typeof fragment === 'string' || part.function?.name)) {
              subscriber.next({ type: 'tool-call-delta', index: part.index, id: part.id ?? undefined, name: part.function?.name ?? undefined, argumentsDelta: fragment ?? '' });
            }
          }
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    } catch (err) {
      return fail(subscriber, err, 'stream');
    }
    if (subscriber.closed) return;
    if (controller.signal.aborted) return subscriber.error(new ProviderError(`Provider '${name}' failed: the request was cancelled.`));
    if (finishReason === undefined) return subscriber.error(truncatedStreamError(name));
    for (const call of calls.complete()) subscriber.next({ type: 'tool-call', ...call });
    finishWith(subscriber, usage, finishReason, info);
  }

  async function requestInto(req: ProviderRequest, controller: AbortController, subscriber: Subscriber<ProviderEvent>): Promise<void> {
    const params = body(req, false) as unknown as OpenAIChatNonStreamingBody;
    let completion: OpenAIChatCompletion;
    try {
      completion = await withFirstFailure(client, controller.signal, (options) => client.chat.completions.create(params, options));
    } catch (err) {
      return fail(subscriber, err, 'request');
    }
    if (subscriber.closed) return;
    const choice = completion.choices?.[0];
    const message = choice?.message;
    if (message?.content) subscriber.next({ type: 'text-delta', text: message.content });
    if (message?.refusal) subscriber.next({ type: 'text-delta', text: message.refusal });
    for (const call of message?.tool_calls ?? []) {
      if (call.type !== 'function' || call.function === undefined) continue;
      subscriber.next({ type: 'tool-call', id: call.id, name: call.function.name, arguments: call.function.arguments ?? '' });
    }
    const info: ResponseInfo = {};
    if (typeof completion.id === 'string' && completion.id.length > 0) info.responseId = completion.id;
    if (typeof completion.model === 'string' && completion.model.length > 0) info.responseModel = completion.model;
    finishWith(subscriber, completion.usage, choice?.finish_reason ?? undefined, info);
  }

  function fail(subscriber: Subscriber<ProviderEvent>, err: unknown, phase: 'request' | 'stream'): void {
    if (subscriber.closed) return;
    let typed: ProviderError;
    try {
      typed = toProviderError(name, client, err, phase);
    } catch {
      // a failure whose fields cannot be read
      typed = scrubErrorChain(new ProviderError(`Provider '${name}' failed: ${thrownMessage(err)}`, { cause: err }), (text) => redactClientKey(text, client));
    }
    subscriber.error(typed);
  }

  const server = serverOf(client.baseURL);
  return {
    name,
    telemetryName: opts.telemetryName ?? 'openai',
    ...(server ? { server } : {}),
    nativeTools: true,
    request: (req, signal) =>
      abortableRequest(signal, (controller, subscriber) => {
        void (streaming ? streamInto : requestInto)(req, controller, subscriber).catch((err: unknown) => fail(subscriber, err, 'stream'));
      }),
  };
}

/**
 * The history as Chat Completions takes it: messages that carry fields of other providers
 * (`reasoning`, `isError`) go without them, since the API refuses properties it does not know.
 * A history without such fields is sent as it is.
 */
function chatWireMessages(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  if (!messages.some((m) => 'reasoning' in m || 'isError' in m)) return messages;
  return messages.map((m) => {
    if (m.role === 'assistant' && 'reasoning' in m) {
      const { reasoning: _reasoning, ...rest } = m;
      return rest;
    }
    if (m.role === 'tool' && 'isError' in m) {
      const { isError: _isError, ...rest } = m;
      return rest;
    }
    return m;
  });
}

/** The response's id and model, as the server reported them. */
interface ResponseInfo {
  responseId?: string;
  responseModel?: string;
}

function finishWith(subscriber: Subscriber<ProviderEvent>, usage: OpenAIUsage | null | undefined, reason: string | undefined, info: ResponseInfo): void {
  if (usage) subscriber.next({ type: 'usage', inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 });
  subscriber.next({ type: 'finish', ...(reason !== undefined ? { reason } : {}), ...info });
  subscriber.complete();
}
