import type { ProviderEvent, ProviderToolCall } from '../provider.js';
import type { ResponsesTurn } from './emit-turn-end.js';
import type { OpenAIResponse, OpenAIResponsesStreamEvent } from './openai-responses-client.js';
import { outputRef, type OutputRef } from './output-order.js';
import { responseFailedError, streamErrorEventError } from './responses-errors.js';

/** The fields of a stream event the reader looks at; any of them may be missing or of another type. */
interface EventFields {
  readonly type: string;
  readonly output_index?: unknown;
  readonly delta?: unknown;
  readonly arguments?: unknown;
  readonly name?: unknown;
  readonly item?: ({ readonly type?: unknown; readonly call_id?: unknown; readonly name?: unknown; readonly arguments?: unknown } & Record<string, unknown>) | null;
  readonly response?: OpenAIResponse | null;
}

/** A function call being streamed: its position among the response's calls, and what arrived so far. */
interface CallEntry {
  readonly index: number;
  id: string;
  name: string;
  args: string;
  done: boolean;
}

/**
 * Reads a Responses API event stream (the documented SSE events, as the `openai` client parses
 * them) one event at a time. Text (`response.output_text.delta`, `response.refusal.delta`) and
 * each fragment of a call's arguments (`response.function_call_arguments.delta`, as a
 * `tool-call-delta` whose `index` is the call's position among the response's calls) go out at
 * once; calls (keyed by `output_index`, with the `call_id` and `name` of their
 * `response.output_item.added`, the arguments of their `.done` events) and `reasoning` items are
 * kept for the end. `response.completed` or `response.incomplete` closes the response;
 * `response.failed` and an `error` event throw a `ProviderError`. Other events are ignored.
 *
 * @example
 * ```ts
 * const reader = new ResponsesStreamReader('openai-responses');
 * for await (const event of stream) reader.read(event, (e) => subscriber.next(e));
 * const turn = reader.turn(); // undefined when the stream was cut before its closing event
 * ```
 */
export class ResponsesStreamReader {
  private readonly calls = new Map<number, CallEntry>();
  private readonly reasoning = new Map<number, Readonly<Record<string, unknown>>>();
  /** Each finished item's ids, by output index. */
  private readonly refs = new Map<number, OutputRef>();
  private lastOutputIndex = 0;
  private started: OpenAIResponse = {};
  private closed: OpenAIResponse | undefined;

  constructor(private readonly provider: string) {}

  /** Reads one event, emitting its text and argument deltas through `next`. */
  read(event: OpenAIResponsesStreamEvent, next: (event: ProviderEvent) => void): void {
    const e = event as EventFields;
    switch (e.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (typeof e.delta === 'string' && e.delta.length > 0) next({ type: 'text-delta', text: e.delta });
        return;
      case 'response.function_call_arguments.delta': {
        if (typeof e.delta !== 'string' || e.delta.length === 0) return;
        const call = this.call(e.output_index);
        call.args += e.delta;
        return next(argumentsDelta(call, e.delta));
      }
      case 'response.function_call_arguments.done': {
        const call = this.call(e.output_index);
        if (typeof e.arguments === 'string') call.args = e.arguments;
        if (typeof e.name === 'string' && call.name.length === 0) call.name = e.name;
        return;
      }
      case 'response.output_item.added':
      case 'response.output_item.done':
        return this.item(e, next);
      case 'response.created':
        if (e.response) this.started = e.response;
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.closed = { ...this.started, status: e.type.slice('response.'.length), ...e.response };
        return;
      case 'response.failed':
        throw responseFailedError(this.provider, e.response);
      case 'error':
        throw streamErrorEventError(this.provider, e);
    }
  }

  /**
   * The response, once its closing event arrived (undefined before): its reasoning items and its
   * calls in output order. An incomplete response keeps only the calls whose item was done.
   */
  turn(): ResponsesTurn | undefined {
    const response = this.closed;
    if (response === undefined) return undefined;
    const calls: ProviderToolCall[] = [];
    const complete = response.status !== 'incomplete';
    for (const call of this.calls.values()) {
      if (call.name.length === 0 || !(complete || call.done)) continue;
      calls.push(call.id.length > 0 ? { id: call.id, name: call.name, arguments: call.args } : { name: call.name, arguments: call.args });
    }
    const reasoning = [...this.reasoning.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    const order = [...this.refs.entries()].sort(([a], [b]) => a - b).map(([, ref]) => ref);
    return { response, reasoning, calls, order };
  }

  private item(e: EventFields, next: (event: ProviderEvent) => void): void {
    const item = e.item;
    const ref = e.type === 'response.output_item.done' ? outputRef(item) : undefined;
    if (ref !== undefined) this.refs.set(this.outputIndex(e.output_index), ref);
    if (item?.type === 'reasoning' && e.type === 'response.output_item.done') {
      this.reasoning.set(this.outputIndex(e.output_index), item);
      return;
    }
    if (item?.type !== 'function_call') return;
    const call = this.call(e.output_index);
    const before = call.args;
    if (typeof item.call_id === 'string' && item.call_id.length > 0) call.id = item.call_id;
    if (typeof item.name === 'string' && item.name.length > 0) call.name = item.name;
    if (typeof item.arguments === 'string') call.args = item.arguments;
    if (e.type === 'response.output_item.done') call.done = true;
    // arguments that came whole with the item rather than as deltas
    else if (before.length === 0 && call.args.length > 0) next(argumentsDelta(call, call.args));
  }

  private call(outputIndex: unknown): CallEntry {
    const key = this.outputIndex(outputIndex);
    let call = this.calls.get(key);
    if (call === undefined) {
      call = { index: this.calls.size, id: '', name: '', args: '', done: false };
      this.calls.set(key, call);
    }
    return call;
  }

  /** The event's `output_index`; an event without one belongs to the item before it. */
  private outputIndex(value: unknown): number {
    if (typeof value === 'number' && Number.isInteger(value)) this.lastOutputIndex = value;
    return this.lastOutputIndex;
  }
}

function argumentsDelta(call: CallEntry, text: string): ProviderEvent {
  return {
    type: 'tool-call-delta',
    index: call.index,
    ...(call.id.length > 0 ? { id: call.id } : {}),
    ...(call.name.length > 0 ? { name: call.name } : {}),
    argumentsDelta: text,
  };
}
