import type { Subscriber } from 'rxjs';
import { abortableRequest } from '../abortable-request.js';
import { ProviderError } from '../../core/errors.js';
import { thrownMessage } from '../../core/read-thrown.js';
import type { ToolSpec } from '../../core/tool.js';
import { scrubErrorChain } from '../../results/scrub-error-chain.js';
import { withFirstFailure } from '../first-failure-retries.js';
import { redactClientKey } from '../openai-error.js';
import type { ModelProvider, ProviderEvent, ProviderRequest } from '../provider.js';
import { serverOf } from '../server-of.js';
import type { AnthropicClient, AnthropicStreamEvent, AnthropicStreamingBody, AnthropicToolSpec } from './anthropic-client.js';
import { toAnthropicError, truncatedAnthropicStream } from './anthropic-error.js';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

/** What the answer tool of a structured turn tells the model. */
const ANSWER_TOOL_DESCRIPTION = 'Give your final answer with this tool: its input is the answer, in the required format.';

/** Options of `anthropicProvider`. */
export interface AnthropicProviderOptions {
  /** The provider's name in errors and logs. Default `'anthropic'`. */
  readonly name?: string;
  /** `gen_ai.provider.name` in spans (a GenAI conventions value). Default `'anthropic'`. */
  readonly telemetryName?: string;
  /** `max_tokens` of every request (the Messages API requires one). Default 4096. */
  readonly maxTokens?: number;
  /** Extra body parameters sent with every request (e.g. `thinking`, `tool_choice`, `metadata`). */
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * A native-tool provider over the Anthropic Messages API. It streams: text deltas go out as
 * they arrive, a `tool-call-delta` for every `input_json_delta`, and `tool_use` blocks come out
 * as complete `tool-call`s when the stream ends, followed by `usage` (input tokens count cache
 * writes and reads) and the `finish` (`stop_reason`, the message's `id` and `model`). Thinking
 * blocks come out as `reasoning` parts with their signatures; the history sends them back before
 * the turn's text and tool calls. The system messages go in `system`, tool results in
 * `tool_result` blocks (`is_error` for a failed slot). The signal (and unsubscribing) aborts the
 * HTTP request. Failures — HTTP errors after the client's retries (one attempt at a time, so
 * the error reports the first failure), an `error` event, a connection lost mid-stream, a
 * stream cut before `message_stop` — error with a `ProviderError` (`status` set for HTTP errors).
 *
 * ```
 * server:  -s-b-d-d-x-m-|        (message_start, block start, deltas, block stop, message_delta, message_stop)
 * events:  -----t-j-r---(c u f|) (text-delta, tool-call-delta, reasoning…, then tool-call…, usage, finish)
 * ```
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * const provider = anthropicProvider(new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY }));
 * const agent = createAgent({ provider, model: 'claude-sonnet-4-5', tools: [calculator] });
 * ```
 * @param client a configured `@anthropic-ai/sdk` client (its `maxRetries` and `timeout` apply),
 *   typed structurally as `AnthropicClient`, so the library's types never need the SDK installed.
 * @return a `ModelProvider` with `nativeTools: true`.
 */
export function anthropicProvider(client: AnthropicClient, opts: AnthropicProviderOptions = {}): ModelProvider {
  const name = opts.name ?? 'anthropic';
  const wrapped = new WeakMap<ToolSpec, AnthropicToolSpec>();
  const toolOf = (spec: ToolSpec): AnthropicToolSpec => {
    let tool = wrapped.get(spec);
    if (tool === undefined) {
      tool = Object.freeze({ name: spec.name, description: spec.description, input_schema: spec.parameters });
      wrapped.set(spec, tool);
    }
    return tool;
  };

  /** The request's body: `params`, then the request's fields, then `stream`. */
  const body = (req: ProviderRequest): AnthropicStreamingBody => {
    const { params } = opts;
    const out: Record<string, unknown> = params === undefined ? {} : { ...params };
    const { system, messages } = toAnthropicMessages(req.messages);
    out.model = req.model;
    if (opts.maxTokens !== undefined || typeof out.max_tokens !== 'number') out.max_tokens = opts.maxTokens ?? 4096;
    if (system !== undefined) out.system = system;
    out.messages = messages;
    const tools = req.tools && req.tools.length > 0 ? req.tools.map(toolOf) : [];
    if (req.output !== undefined) {
      // structured output: a tool whose input is the answer, forced unless the app chose (or thinking forbids it)
      tools.push({ name: req.output.name, description: ANSWER_TOOL_DESCRIPTION, input_schema: req.output.schema });
      if (out.tool_choice === undefined && out.thinking === undefined) {
        out.tool_choice = tools.length > 1 ? { type: 'any' } : { type: 'tool', name: req.output.name };
      }
    }
    if (tools.length > 0) out.tools = tools;
    if (req.temperature !== undefined) out.temperature = req.temperature;
    out.stream = true;
    return out as unknown as AnthropicStreamingBody;
  };

  async function streamInto(req: ProviderRequest, controller: AbortController, subscriber: Subscriber<ProviderEvent>): Promise<void> {
    const params = body(req);
    let stream: AsyncIterable<AnthropicStreamEvent>;
    try {
      stream = await withFirstFailure(client, controller.signal, (options) => client.messages.create(params, options));
    } catch (err) {
      return fail(subscriber, err, 'request');
    }
    const response = new AnthropicStreamAssembler(req.output?.name);
    const emit = (event: ProviderEvent): void => subscriber.next(event);
    try {
      for await (const event of stream) {
        if (subscriber.closed) break;
        response.read(event, emit);
      }
    } catch (err) {
      return fail(subscriber, err, 'stream');
    }
    if (subscriber.closed) return;
    if (controller.signal.aborted) return subscriber.error(new ProviderError(`Provider '${name}' failed: the request was cancelled.`));
    const rest = response.end();
    if (rest === undefined) return subscriber.error(truncatedAnthropicStream(name));
    for (const event of rest) subscriber.next(event);
    subscriber.complete();
  }

  function fail(subscriber: Subscriber<ProviderEvent>, err: unknown, phase: 'request' | 'stream'): void {
    if (subscriber.closed) return;
    let typed: ProviderError;
    try {
      typed = toAnthropicError(name, client, err, phase);
    } catch {
      // a failure whose fields cannot be read
      typed = scrubErrorChain(new ProviderError(`Provider '${name}' failed: ${thrownMessage(err)}`, { cause: err }), (text) => redactClientKey(text, client));
    }
    subscriber.error(typed);
  }

  const server = serverOf(client.baseURL);
  return {
    name,
    telemetryName: opts.telemetryName ?? 'anthropic',
    ...(server ? { server } : {}),
    nativeTools: true,
    request: (req, signal) =>
      abortableRequest(signal, (controller, subscriber) => {
        void streamInto(req, controller, subscriber).catch((err: unknown) => fail(subscriber, err, 'stream'));
      }),
  };
}
