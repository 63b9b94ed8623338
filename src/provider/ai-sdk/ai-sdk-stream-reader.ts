import { ProviderError } from '../../core/errors.js';
import { readThrown } from '../../core/read-thrown.js';
import type { ProviderEvent } from '../provider.js';
import { reportedMessage } from './ai-sdk-error.js';
import { AI_SDK_REASONING } from './ai-sdk-prompt.js';

type Metadata = Record<string, unknown>;

/** A tool call as its parts arrive: `tool-input-start/delta/end`, then `tool-call`. */
interface Call {
  readonly index: number;
  readonly id: string;
  name: string;
  args: string;
  input?: string;
  /** The call's provider metadata (Gemini's thought signature), needed back with the call. */
  metadata?: Metadata;
  /** Run by the provider itself (a server-side tool): never ours to run. */
  providerExecuted: boolean;
}

interface Reasoning {
  text: string;
  metadata?: Metadata;
}

/**
 * Turns the parts of an AI SDK model's stream (spec v2, v3 and v4) into provider events, in the
 * order the contract wants: text deltas, reasoning blocks and tool-argument deltas as they come;
 * then, at the end, the tool calls' provider metadata (as `reasoning` parts `{ toolCallId,
 * providerMetadata }`, so it goes back with the call), the complete tool calls, usage and the
 * finish. One reader per request.
 *
 * @example
 * ```ts
 * const reader = new AiSdkStreamReader('openai.chat', (event) => subscriber.next(event));
 * for (const part of parts) reader.read(part); // throws a ProviderError for an `error` part
 * const failure = reader.end();                // undefined, or the error of a stream cut short
 * ```
 */
export class AiSdkStreamReader {
  private readonly calls: Call[] = [];
  private readonly callsById = new Map<string, Call>();
  private readonly reasoning = new Map<string, Reasoning>();
  private responseId?: string;
  private responseModel?: string;
  private finish?: { readonly usage: unknown; readonly reason: unknown };

  constructor(
    private readonly name: string,
    private readonly emit: (event: ProviderEvent) => void,
  ) {}

  /** Reads one stream part; an `error` part throws its `ProviderError`. */
  read(part: unknown): void {
    const type = readThrown(part, 'type');
    switch (type) {
      case 'text-delta': {
        const delta = readThrown(part, 'delta');
        if (typeof delta === 'string' && delta.length > 0) this.emit({ type: 'text-delta', text: delta });
        return;
      }
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        return this.readReasoning(type, part);
      case 'tool-input-start':
      case 'tool-input-delta':
      case 'tool-call':
        return this.readCall(type, part);
      case 'response-metadata': {
        const id = readThrown(part, 'id');
        const model = readThrown(part, 'modelId');
        if (typeof id === 'string' && id.length > 0) this.responseId ??= id;
        if (typeof model === 'string' && model.length > 0) this.responseModel ??= model;
        return;
      }
      case 'finish':
        this.finish = { usage: readThrown(part, 'usage'), reason: readThrown(part, 'finishReason') };
        return;
      case 'error':
        throw new ProviderError(`Provider '${this.name}' failed: the server reported an error mid-stream: ${reportedMessage(readThrown(part, 'error'))}`, {
          status: statusOf(readThrown(part, 'error')),
          cause: readThrown(part, 'error'),
        });
    }
  }

  /**
   * Emits what waits for the end (reasoning blocks left open, the tool calls, usage, finish);
   * returns the error of a stream that ended without its `finish` part instead.
   */
  end(): ProviderError | undefined {
    if (this.finish === undefined) {
      return new ProviderError(`Provider '${this.name}' failed: the stream ended before the response was complete (no finish part).`);
    }
    for (const id of [...this.reasoning.keys()]) this.closeReasoning(id);
    const calls = this.calls.filter((call) => !call.providerExecuted && call.name.length > 0);
    for (const { id, metadata } of calls) {
      if (metadata !== undefined) this.emit({ type: 'reasoning', part: { provider: AI_SDK_REASONING, data: { toolCallId: id, providerMetadata: metadata } } });
    }
    for (const call of calls) this.emit({ type: 'tool-call', id: call.id, name: call.name, arguments: call.input ?? call.args });
    const { usage, reason } = this.finish;
    const inputTokens = tokens(readThrown(usage, 'inputTokens'));
    const outputTokens = tokens(readThrown(usage, 'outputTokens'));
    if (inputTokens !== undefined || outputTokens !== undefined) this.emit({ type: 'usage', inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 });
    const said = reasonOf(reason);
    this.emit({
      type: 'finish',
      ...(said !== undefined ? { reason: said } : {}),
      ...(this.responseId !== undefined ? { responseId: this.responseId } : {}),
      ...(this.responseModel !== undefined ? { responseModel: this.responseModel } : {}),
    });
    return undefined;
  }

  private readReasoning(type: 'reasoning-start' | 'reasoning-delta' | 'reasoning-end', part: unknown): void {
    const id = String(readThrown(part, 'id') ?? '');
    let block = this.reasoning.get(id);
    if (block === undefined) {
      block = { text: '' };
      this.reasoning.set(id, block);
    }
    const delta = readThrown(part, 'delta');
    if (typeof delta === 'string') block.text += delta;
    block.metadata = merged(block.metadata, readThrown(part, 'providerMetadata'));
    if (type === 'reasoning-end') this.closeReasoning(id);
  }

  private closeReasoning(id: string): void {
    const block = this.reasoning.get(id);
    if (block === undefined) return;
    this.reasoning.delete(id);
    const data = block.metadata === undefined ? { text: block.text } : { text: block.text, providerMetadata: block.metadata };
    this.emit({ type: 'reasoning', part: { provider: AI_SDK_REASONING, data } });
  }

  private readCall(type: 'tool-input-start' | 'tool-input-delta' | 'tool-call', part: unknown): void {
    const id = String(readThrown(part, type === 'tool-call' ? 'toolCallId' : 'id') ?? '');
    let call = this.callsById.get(id);
    if (call === undefined) {
      call = { index: this.calls.length, id, name: '', args: '', providerExecuted: false };
      this.calls.push(call);
      this.callsById.set(id, call);
    }
    const name = readThrown(part, 'toolName');
    if (typeof name === 'string' && name.length > 0) call.name = name;
    if (readThrown(part, 'providerExecuted') === true) call.providerExecuted = true;
    call.metadata = merged(call.metadata, readThrown(part, 'providerMetadata'));
    if (type === 'tool-call') {
      const input = readThrown(part, 'input');
      call.input = typeof input === 'string' ? input : JSON.stringify(input ?? {});
      return;
    }
    const delta = readThrown(part, 'delta');
    if (type !== 'tool-input-delta' || typeof delta !== 'string' || delta.length === 0 || call.providerExecuted) return;
    call.args += delta;
    this.emit({ type: 'tool-call-delta', index: call.index, id: call.id, ...(call.name.length > 0 ? { name: call.name } : {}), argumentsDelta: delta });
  }
}

/** Spec v2 counts tokens as numbers; v3 and v4 as `{ total, … }`. */
function tokens(value: unknown): number | undefined {
  const total = typeof value === 'object' && value !== null ? readThrown(value, 'total') : value;
  return typeof total === 'number' && Number.isFinite(total) ? total : undefined;
}

/** Spec v2's reason is a string; v3's and v4's `{ unified, raw }`: the server's own word first, as native providers report it. */
function reasonOf(reason: unknown): string | undefined {
  if (typeof reason === 'string') return reason;
  const raw = readThrown(reason, 'raw');
  if (typeof raw === 'string' && raw.length > 0) return raw;
  const unified = readThrown(reason, 'unified');
  return typeof unified === 'string' ? unified : undefined;
}

/** Provider metadata merged per provider key (a signature can come on a later part than the block's start). */
function merged(into: Metadata | undefined, more: unknown): Metadata | undefined {
  if (typeof more !== 'object' || more === null) return into;
  const out: Metadata = { ...into };
  for (const [key, value] of Object.entries(more)) {
    const before = out[key];
    out[key] = isPlain(before) && isPlain(value) ? { ...before, ...value } : value;
  }
  return out;
}

const isPlain = (value: unknown): value is Metadata => typeof value === 'object' && value !== null && !Array.isArray(value);

function statusOf(err: unknown): number | undefined {
  const status = readThrown(err, 'statusCode');
  return typeof status === 'number' && status >= 100 ? status : undefined;
}
