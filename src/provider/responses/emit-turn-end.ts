import type { ProviderEvent, ProviderToolCall } from '../provider.js';
import type { OpenAIResponse } from './openai-responses-client.js';
import type { OutputRef } from './output-order.js';
import { RESPONSES_FAMILY } from './to-responses-input.js';

/** One response, read: the closing response object, its reasoning items and its complete calls, in output order. */
export interface ResponsesTurn {
  readonly response: OpenAIResponse;
  readonly reasoning: readonly Readonly<Record<string, unknown>>[];
  readonly calls: readonly ProviderToolCall[];
  /** The output items' ids in output order (`OutputRef`), for a history that sends reasoning back. */
  readonly order: readonly OutputRef[];
}

/**
 * Emits a read response's closing events: a `reasoning` event per reasoning item (then, when
 * there was any, the output order marker `{ type: 'output_order', items }`, and with `chain`,
 * the response id marker), a `tool-call` per call, `usage` when the server counted
 * tokens, and `finish` with the status (`completed`, or why it is `incomplete`, e.g.
 * `max_output_tokens`), the response id and the model.
 *
 * ```
 * turn:   (r c u f|)    reasoning…, tool-call…, usage, finish
 * ```
 * @example
 * ```ts
 * emitTurnEnd({ response, reasoning: [], calls: [] }, false, (event) => subscriber.next(event));
 * ```
 */
export function emitTurnEnd(turn: ResponsesTurn, chain: boolean, next: (event: ProviderEvent) => void): void {
  const { response } = turn;
  for (const data of turn.reasoning) next({ type: 'reasoning', part: { provider: RESPONSES_FAMILY, data } });
  // reasoning goes back paired by id with the items that followed it: their order and ids too
  if (turn.reasoning.length > 0 && turn.order.length > 0) next({ type: 'reasoning', part: { provider: RESPONSES_FAMILY, data: { type: 'output_order', items: turn.order } } });
  const id = nonEmpty(response.id);
  if (chain && id !== undefined) next({ type: 'reasoning', part: { provider: RESPONSES_FAMILY, data: { type: 'response_id', id } } });
  for (const call of turn.calls) next({ type: 'tool-call', ...call });
  const usage = response.usage;
  if (usage) next({ type: 'usage', inputTokens: count(usage.input_tokens), outputTokens: count(usage.output_tokens) });
  const reason = response.status === 'incomplete' ? (nonEmpty(response.incomplete_details?.reason) ?? 'incomplete') : nonEmpty(response.status);
  const model = nonEmpty(response.model);
  next({
    type: 'finish',
    ...(reason !== undefined ? { reason } : {}),
    ...(id !== undefined ? { responseId: id } : {}),
    ...(model !== undefined ? { responseModel: model } : {}),
  });
}

const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
