import type { Subscriber } from 'rxjs';
import { abortableRequest } from '../abortable-request.js';
import { ConfigurationError, ProviderError } from '../../core/errors.js';
import { thrownMessage } from '../../core/read-thrown.js';
import type { ToolSpec } from '../../core/tool.js';
import { scrubErrorChain } from '../../results/scrub-error-chain.js';
import { withFirstFailure } from '../first-failure-retries.js';
import { redactClientKey, toProviderError } from '../openai-error.js';
import type { ModelProvider, ProviderEvent, ProviderRequest } from '../provider.js';
import { serverOf } from '../server-of.js';
import { emitTurnEnd, type ResponsesTurn } from './emit-turn-end.js';
import type {
  OpenAIResponse,
  OpenAIResponsesClient,
  OpenAIResponsesNonStreamingBody,
  OpenAIResponsesStreamEvent,
  OpenAIResponsesStreamingBody,
} from './openai-responses-client.js';
import { readWholeResponse } from './read-whole-response.js';
import { streamEndedEarlyError } from './responses-errors.js';
import { ResponsesStreamReader } from './responses-stream-reader.js';
import { toResponsesInput } from './to-responses-input.js';

/** Options of `openAIResponsesProvider`. */
export interface OpenAIResponsesProviderOptions {
  /** The provider's name in errors and logs. Default `'openai-responses'`. */
  readonly name?: string;
  /** `gen_ai.provider.name` in spans (a GenAI conventions value). Default `'openai'`. */
  readonly telemetryName?: string;
  /** Stream the response (default `true`). `false` sends one non-streaming request. */
  readonly stream?: boolean;
  /**
   * Let OpenAI store the responses (default `true`). With `false` (zero data retention), every
   * request also asks for `include: ['reasoning.encrypted_content']`, so the reasoning items
   * sent back with the history carry their encrypted content.
   */
  readonly store?: boolean;
  /**
   * Chain requests with `previous_response_id` (default `false`): each assistant message keeps
   * its response's id, and a request sends only the messages after the last one, which the
   * server already holds. Needs `store`.
   */
  readonly previousResponseId?: boolean;
  /** Extra body parameters sent with every request (e.g. `max_output_tokens`, `reasoning`). */
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * A native-tool provider over the OpenAI Responses API (`POST /responses`). Streams by default:
 * text deltas and each fragment of a call's arguments (`tool-call-delta`) go out as they arrive;
 * the complete calls follow when the response is done, after its reasoning items (as `reasoning`
 * parts the loop keeps on the assistant message and this provider sends back, encrypted with
 * `store: false`), then usage and the finish (the status, the response's id and model). History
 * goes as `input` items (`function_call` and `function_call_output` for tool rounds), system
 * messages as `instructions`. The signal (and unsubscribing) aborts the HTTP request. Failures —
 * HTTP errors after the client's retries (reporting the FIRST failure), `response.failed`, an
 * `error` event, a lost connection, a stream cut before `response.completed` — error with a
 * `ProviderError` (`status` set for HTTP errors).
 *
 * ```
 * server:  -a-d-d-i-c|          (added item, argument deltas, item done, response.completed)
 * events:  ---x-x---(r c u f|)  (tool-call-delta…, then reasoning…, tool-call…, usage, finish)
 * ```
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * const provider = openAIResponsesProvider(new OpenAI(), { store: false });
 * const agent = createAgent({ provider, model: 'gpt-5-mini', tools: [calculator] });
 * ```
 * @param client a configured `openai` client (its `maxRetries` and `timeout` apply), typed
 *   structurally as `OpenAIResponsesClient`, so the library's types never need `openai` installed.
 * @return a `ModelProvider` with `nativeTools: true`.
 */
export function openAIResponsesProvider(client: OpenAIResponsesClient, opts: OpenAIResponsesProviderOptions = {}): ModelProvider {
  const name = opts.name ?? 'openai-responses';
  const streaming = opts.stream ?? true;
  const store = opts.store ?? true;
  const chain = opts.previousResponseId ?? false;
  if (chain && !store) {
    throw new ConfigurationError(`Provider '${name}': previousResponseId needs store: a response that is not stored cannot be continued.`);
  }
  const wrapped = new WeakMap<ToolSpec, object>();
  const toolOf = (spec: ToolSpec): object => {
    let tool = wrapped.get(spec);
    if (tool === undefined) {
      tool = Object.freeze({ type: 'function', name: spec.name, description: spec.description, parameters: spec.parameters, strict: false });
      wrapped.set(spec, tool);
    }
    return tool;
  };

  /** The request's body: `params`, then the request's fields, then `store`, `include` and `stream`. */
  const body = (req: ProviderRequest, stream: boolean): Record<string, unknown> => {
    const { params } = opts;
    const out: Record<string, unknown> = params === undefined ? {} : { ...params };
    const { instructions, input, previousResponseId } = toResponsesInput(req.messages, chain, store);
    out.model = req.model;
    if (instructions !== undefined) out.instructions = instructions;
    out.input = input;
    if (req.tools && req.tools.length > 0) out.tools = req.tools.map(toolOf);
    if (req.temperature !== undefined) out.temperature = req.temperature;
    if (req.output !== undefined) {
      const text = typeof out.text === 'object' && out.text !== null ? out.text : {};
      out.text = { ...text, format: { type: 'json_schema', name: req.output.name, schema: req.output.schema, strict: false } };
    }
    out.store = store;
    if (!store) out.include = withEncryptedReasoning(params?.include);
    if (previousResponseId !== undefined) out.previous_response_id = previousResponseId;
    out.stream = stream;
    return out;
  };

  async function streamInto(req: ProviderRequest, controller: AbortController, subscriber: Subscriber<ProviderEvent>): Promise<void> {
    const params = body(req, true) as unknown as OpenAIResponsesStreamingBody;
    let stream: AsyncIterable<OpenAIResponsesStreamEvent>;
    try {
      stream = await withFirstFailure(client, controller.signal, (options) => client.responses.create(params, options));
    } catch (err) {
      return fail(subscriber, err, 'request');
    }
    const reader = new ResponsesStreamReader(name);
    const next = (event: ProviderEvent): void => subscriber.next(event);
    try {
      for await (const event of stream) {
        if (subscriber.closed) break;
        reader.read(event, next);
      }
    } catch (err) {
      return fail(subscriber, err, 'stream');
    }
    if (subscriber.closed) return;
    if (controller.signal.aborted) return subscriber.error(new ProviderError(`Provider '${name}' failed: the request was cancelled.`));
    const turn = reader.turn();
    if (turn === undefined) return subscriber.error(streamEndedEarlyError(name));
    end(turn, subscriber);
  }

  async function requestInto(req: ProviderRequest, controller: AbortController, subscriber: Subscriber<ProviderEvent>): Promise<void> {
    const params = body(req, false) as unknown as OpenAIResponsesNonStreamingBody;
    let response: OpenAIResponse;
    try {
      response = await withFirstFailure(client, controller.signal, (options) => client.responses.create(params, options));
    } catch (err) {
      return fail(subscriber, err, 'request');
    }
    if (subscriber.closed) return;
    let turn: ResponsesTurn;
    try {
      turn = readWholeResponse(name, response, (event) => subscriber.next(event));
    } catch (err) {
      return fail(subscriber, err, 'request');
    }
    end(turn, subscriber);
  }

  function end(turn: ResponsesTurn, subscriber: Subscriber<ProviderEvent>): void {
    emitTurnEnd(turn, chain, (event) => subscriber.next(event));
    subscriber.complete();
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

/** `include` with `reasoning.encrypted_content` added to what `params` asked for. */
function withEncryptedReasoning(include: unknown): string[] {
  const asked = Array.isArray(include) ? include.filter((entry): entry is string => typeof entry === 'string') : [];
  return asked.includes('reasoning.encrypted_content') ? asked : [...asked, 'reasoning.encrypted_content'];
}
