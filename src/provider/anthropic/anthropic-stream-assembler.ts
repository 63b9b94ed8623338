import type { ProviderEvent, ProviderToolCall } from '../provider.js';
import type { AnthropicStreamEvent, AnthropicUsage } from './anthropic-client.js';

/** A content block being streamed, by its `index`. */
type Block =
  | { readonly kind: 'tool'; readonly call: number }
  | { readonly kind: 'thinking'; thinking: string; signature: string }
  | { readonly kind: 'redacted'; readonly data: string }
  /** The answer tool's input (structured output): streamed as text, never a call. */
  | { readonly kind: 'answer'; readonly input: unknown; streamed: boolean }
  | { readonly kind: 'other' };

interface Call {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  args: string;
}

/**
 * Reads the events of a Messages API stream, in order, and says what the provider emits: text
 * deltas at once, a `tool-call-delta` per `input_json_delta` (`index`: the call's position among
 * the response's calls), a `reasoning` part when a `thinking` or `redacted_thinking` block ends
 * (the block as it must be sent back, signature included). `end()` gives the rest once the
 * stream is over: the complete `tool-call`s, `usage` (input counts cache writes and reads) and
 * the `finish` — or undefined when no `message_stop` came, a response cut short. With an
 * `answerTool` (structured output), that tool's input is the answer: its JSON goes out as
 * `text-delta` events, and it is no call.
 *
 * @example
 * ```ts
 * const response = new AnthropicStreamAssembler();
 * for await (const event of stream) response.read(event, (e) => subscriber.next(e));
 * const rest = response.end(); // undefined: the stream was cut
 * ```
 */
export class AnthropicStreamAssembler {
  private readonly blocks = new Map<number, Block>();
  private readonly calls: Call[] = [];

  constructor(private readonly answerTool?: string) {}
  private readonly usage = { input: 0, cacheWrite: 0, cacheRead: 0, output: 0, seen: false };
  private responseId?: string;
  private responseModel?: string;
  private stopReason?: string;
  private stopped = false;

  /** Reads one event; `emit` gets what goes out now. */
  read(event: AnthropicStreamEvent, emit: (event: ProviderEvent) => void): void {
    switch (event.type) {
      case 'message_start':
        if (typeof event.message?.id === 'string' && event.message.id.length > 0) this.responseId = event.message.id;
        if (typeof event.message?.model === 'string' && event.message.model.length > 0) this.responseModel = event.message.model;
        this.count(event.message?.usage);
        return;
      case 'content_block_start':
        return this.start(event);
      case 'content_block_delta':
        return this.delta(event, emit);
      case 'content_block_stop':
        return this.stop(event, emit);
      case 'message_delta':
        if (typeof event.delta?.stop_reason === 'string') this.stopReason = event.delta.stop_reason;
        this.count(event.usage);
        return;
      case 'message_stop':
        this.stopped = true;
        return;
    }
  }

  /** The events that end the response, or undefined when it never reached `message_stop`. */
  end(): ProviderEvent[] | undefined {
    if (!this.stopped) return undefined;
    const out: ProviderEvent[] = [];
    const order = this.interleavedOrder();
    if (order !== undefined) out.push({ type: 'reasoning', part: { provider: 'anthropic', data: { type: 'block_order', blocks: order } } });
    for (const call of this.calls) out.push({ type: 'tool-call', ...completeCall(call) });
    const { usage } = this;
    if (usage.seen) out.push({ type: 'usage', inputTokens: usage.input + usage.cacheWrite + usage.cacheRead, outputTokens: usage.output });
    out.push({
      type: 'finish',
      ...(this.stopReason !== undefined ? { reason: this.stopReason } : {}),
      ...(this.responseId !== undefined ? { responseId: this.responseId } : {}),
      ...(this.responseModel !== undefined ? { responseModel: this.responseModel } : {}),
    });
    return out;
  }

  /**
   * The content blocks' order (`'reasoning'`, `'text'`, `'tool_use:<id>'`) when thinking came
   * after text or a call (interleaved thinking): the API wants thinking sent back where it stood.
   * Undefined when every thinking block came first, the order the history gives by itself.
   */
  private interleavedOrder(): string[] | undefined {
    const order: string[] = [];
    let interleaved = false;
    for (const [, block] of [...this.blocks.entries()].sort(([a], [b]) => a - b)) {
      const reasoning = block.kind === 'thinking' || block.kind === 'redacted';
      if (reasoning && order.some((kind) => kind !== 'reasoning')) interleaved = true;
      order.push(reasoning ? 'reasoning' : block.kind === 'tool' ? `tool_use:${this.calls[block.call].id}` : 'text');
    }
    return interleaved ? order : undefined;
  }

  private start(event: AnthropicStreamEvent): void {
    const block = event.content_block;
    if (typeof event.index !== 'number' || block === undefined) return;
    let entry: Block = { kind: 'other' };
    if (block.type === 'tool_use' && this.answerTool !== undefined && block.name === this.answerTool) {
      entry = { kind: 'answer', input: block.input, streamed: false };
    } else if (block.type === 'tool_use' && typeof block.name === 'string') {
      this.calls.push({ id: typeof block.id === 'string' ? block.id : '', name: block.name, input: block.input, args: '' });
      entry = { kind: 'tool', call: this.calls.length - 1 };
    } else if (block.type === 'thinking') {
      entry = { kind: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' };
    } else if (block.type === 'redacted_thinking') {
      entry = { kind: 'redacted', data: block.data ?? '' };
    }
    this.blocks.set(event.index, entry);
  }

  private delta(event: AnthropicStreamEvent, emit: (event: ProviderEvent) => void): void {
    const delta = event.delta;
    const block = typeof event.index === 'number' ? this.blocks.get(event.index) : undefined;
    switch (delta?.type) {
      case 'text_delta':
        if (typeof delta.text === 'string' && delta.text.length > 0) emit({ type: 'text-delta', text: delta.text });
        return;
      case 'input_json_delta': {
        if (block?.kind === 'answer' && typeof delta.partial_json === 'string' && delta.partial_json.length > 0) {
          block.streamed = true;
          emit({ type: 'text-delta', text: delta.partial_json });
          return;
        }
        if (block?.kind !== 'tool' || typeof delta.partial_json !== 'string') return;
        const call = this.calls[block.call];
        call.args += delta.partial_json;
        const id = call.id.length > 0 ? { id: call.id } : {};
        emit({ type: 'tool-call-delta', index: block.call, ...id, name: call.name, argumentsDelta: delta.partial_json });
        return;
      }
      case 'thinking_delta':
        if (block?.kind === 'thinking' && typeof delta.thinking === 'string') block.thinking += delta.thinking;
        return;
      case 'signature_delta':
        if (block?.kind === 'thinking' && typeof delta.signature === 'string') block.signature += delta.signature;
        return;
    }
  }

  private stop(event: AnthropicStreamEvent, emit: (event: ProviderEvent) => void): void {
    const block = typeof event.index === 'number' ? this.blocks.get(event.index) : undefined;
    if (block?.kind === 'answer' && !block.streamed) {
      // an answer whose input came whole with its block
      const input = typeof block.input === 'object' && block.input !== null ? block.input : {};
      emit({ type: 'text-delta', text: JSON.stringify(input) });
    } else if (block?.kind === 'thinking') {
      emit({ type: 'reasoning', part: { provider: 'anthropic', data: { type: 'thinking', thinking: block.thinking, signature: block.signature } } });
    } else if (block?.kind === 'redacted') {
      emit({ type: 'reasoning', part: { provider: 'anthropic', data: { type: 'redacted_thinking', data: block.data } } });
    }
  }

  /** Takes the counts a `message_start` or `message_delta` carries (the latter's are cumulative). */
  private count(usage: AnthropicUsage | null | undefined): void {
    if (usage === null || usage === undefined) return;
    const { usage: total } = this;
    if (typeof usage.input_tokens === 'number') total.input = usage.input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') total.cacheWrite = usage.cache_creation_input_tokens;
    if (typeof usage.cache_read_input_tokens === 'number') total.cacheRead = usage.cache_read_input_tokens;
    if (typeof usage.output_tokens === 'number') total.output = usage.output_tokens;
    total.seen = true;
  }
}

/** The call's arguments: the streamed JSON text, or the block's own `input` when nothing streamed. */
function completeCall(call: Call): ProviderToolCall {
  const args = call.args.length > 0 ? call.args : JSON.stringify(typeof call.input === 'object' && call.input !== null ? call.input : {});
  return call.id.length > 0 ? { id: call.id, name: call.name, arguments: args } : { name: call.name, arguments: args };
}
