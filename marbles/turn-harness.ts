import { expect } from 'vitest';
import type { ChatMessage, TurnEvent, TurnEventOf } from '../src/index.js';
import type { ProviderEvent } from '../src/provider/provider.js';

/**
 * Helpers shared by the marble specs: compact event codes (so diagrams stay aligned), provider
 * events for `cold()` responses, and probes for subscriptions and listeners.
 */

/** A turn event as a short, readable code: the library's own `eventCode` from `rx-tool-loop/testing`. */
export { eventCode as code } from '../src/testing/index.js';

/** The history text of a slot closed before its tool produced a result. */
export const INTERRUPTED = '[interrupted before this tool produced a result]';

/** A history's tool messages as `id=content`, in order. */
export const toolMessages = (history: readonly ChatMessage[]): string[] =>
  history.flatMap((m) => (m.role === 'tool' ? [`${m.tool_call_id}=${m.content}`] : []));

/** A provider `tool-call` event (id = name unless given). */
export const toolCall = (name: string, args: Record<string, unknown> = {}, id = name): ProviderEvent => ({
  type: 'tool-call',
  id,
  name,
  arguments: args,
});

/** Provider events for `cold()` diagrams: `t` text, `f` finish. */
export const text = (value: string): ProviderEvent => ({ type: 'text-delta', text: value });
export const finish: ProviderEvent = { type: 'finish', reason: 'stop' };

/** One entry of a cold observable's `subscriptions` (frames in virtual time). */
export interface SubscriptionFrames {
  readonly subscribedFrame: number;
  readonly unsubscribedFrame: number;
}

/** The largest number of subscriptions that were open at the same frame. */
export function maxOverlap(logs: readonly SubscriptionFrames[]): number {
  let max = 0;
  for (const log of logs) {
    const at = log.subscribedFrame;
    const open = logs.filter((other) => other.subscribedFrame <= at && other.unsubscribedFrame > at).length;
    max = Math.max(max, open);
  }
  return max;
}

/** Counts the `abort` listeners currently registered on a signal (a fired `once` listener is gone). */
export function trackListeners(signal: AbortSignal): { readonly active: () => number } {
  const live = new Map<EventListenerOrEventListenerObject, EventListener>();
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: AddEventListenerOptions | boolean) => {
    if (type !== 'abort') return add(type, listener, options);
    const once = typeof options === 'object' && options.once === true;
    const call = typeof listener === 'function' ? listener : (ev: Event) => listener.handleEvent(ev);
    const registered: EventListener = (ev) => {
      if (once) live.delete(listener);
      call(ev);
    };
    live.set(listener, registered);
    add(type, registered, options);
  }) as AbortSignal['addEventListener'];
  signal.removeEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: EventListenerOptions | boolean) => {
    const registered = type === 'abort' ? live.get(listener) : undefined;
    if (registered === undefined) return remove(type, listener, options);
    live.delete(listener);
    remove(type, registered, options);
  }) as AbortSignal['removeEventListener'];
  return { active: () => live.size };
}

/**
 * Invariant 1: in `iteration`, each of `slots` slots has exactly one `tool-result`, preceded by
 * exactly one `tool-call` with the same id. Returns the results by slot.
 */
export function expectOneCardPerSlot(events: readonly TurnEvent[], slots: number, iteration = 1): TurnEventOf<'tool-result'>[] {
  const results: TurnEventOf<'tool-result'>[] = [];
  for (let slot = 0; slot < slots; slot++) {
    const calls = events.flatMap((e, i) => (e.type === 'tool-call' && e.iteration === iteration && e.slot === slot ? [i] : []));
    const closes = events.flatMap((e, i) => (e.type === 'tool-result' && e.iteration === iteration && e.slot === slot ? [i] : []));
    expect({ slot, calls: calls.length, results: closes.length }).toEqual({ slot, calls: 1, results: 1 });
    const call = events[calls[0]] as TurnEventOf<'tool-call'>;
    const result = events[closes[0]] as TurnEventOf<'tool-result'>;
    expect(calls[0]).toBeLessThan(closes[0]);
    expect(result.id).toBe(call.id);
    results.push(result);
  }
  const extra = events.filter((e) => (e.type === 'tool-call' || e.type === 'tool-result') && e.iteration === iteration && e.slot >= slots);
  expect(extra).toEqual([]);
  return results;
}
