import type { ChatMessage } from '../../core/messages.js';
import type { OutputFormat } from '../../core/structured-output.js';
import type { ModelProvider, ProviderRequest } from '../provider.js';
import { outputInstructions } from './output-instructions.js';
import { toTextMessages } from './to-text-messages.js';
import { textToolProtocol, type TextProtocolOptions } from './text-tool-protocol.js';

/** Options of `textProtocolProvider`. */
export interface TextProtocolProviderOptions extends TextProtocolOptions {
  /** The provider's name. Default: the inner provider's name. */
  readonly name?: string;
}

/**
 * Wraps a model that has no native tool calling so it calls tools in text: the loop adds the
 * protocol section (how to write `<tool_call>` blocks, and each tool with its schema) as a system
 * message and parses the calls out of the response text. Requests reach the inner provider
 * without `tools`, and any native tool history is rewritten as text. Text deltas pass through
 * unchanged here (the parser needs them whole); the loop's `text-delta` events leave the markup
 * out (`hideMarkup`). With `strict: true` there is no protocol section and no text is parsed as a call.
 * A request's `output` becomes an answer-format section (`outputInstructions`: the JSON Schema)
 * after the system messages, and is not passed on: the inner model is asked in text.
 *
 * ```
 * inner:   -t--t--f|
 * wrapped: -t--t--f|     (events unchanged; calls are parsed from the assembled text)
 * ```
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * const provider = textProtocolProvider(openAIChatProvider(new OpenAI({ baseURL, apiKey })));
 * const agent = createAgent({ provider, model: 'llama3.2:1b', tools: [weather] });
 * ```
 * @return a `ModelProvider` with `nativeTools: false` and a `textProtocol`.
 */
export function textProtocolProvider(inner: ModelProvider, options: TextProtocolProviderOptions = {}): ModelProvider {
  return Object.freeze({
    name: options.name ?? inner.name,
    // telemetry names the inner provider's server and conventions name (the text protocol is how, not who)
    ...(inner.telemetryName !== undefined ? { telemetryName: inner.telemetryName } : {}),
    ...(inner.server !== undefined ? { server: inner.server } : {}),
    nativeTools: false,
    ...(inner.ignoresSignal === true ? { ignoresSignal: true } : {}),
    textProtocol: textToolProtocol(options),
    request: (req: ProviderRequest, signal: AbortSignal) => inner.request(textRequest(req), signal),
  });
}

function textRequest(req: ProviderRequest): ProviderRequest {
  const text = toTextMessages(req.messages);
  if (req.tools === undefined && req.output === undefined && text === req.messages) return req;
  const { tools: _tools, output, ...rest } = req;
  return { ...rest, messages: output === undefined ? text : withOutputSection(text, output) };
}

/** The messages with the answer-format section as a system message after the leading ones (the protocol section's place). */
function withOutputSection(messages: readonly ChatMessage[], output: OutputFormat): ChatMessage[] {
  let at = 0;
  while (at < messages.length && messages[at].role === 'system') at += 1;
  return [...messages.slice(0, at), { role: 'system', content: outputInstructions(output) }, ...messages.slice(at)];
}
