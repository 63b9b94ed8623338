import type { TurnEvent, TurnEventOf } from '../../src/index.js';

/** The tool cards of one slot: its `tool-call` and `tool-result` events with their positions. */
export interface SlotCard {
  readonly iteration: number;
  readonly slot: number;
  readonly calls: number[];
  readonly results: number[];
}

/** The cards of every slot of every iteration, in (iteration, slot) order. */
export function slotCards(events: readonly TurnEvent[]): SlotCard[] {
  const cards = new Map<string, { iteration: number; slot: number; calls: number[]; results: number[] }>();
  events.forEach((e, i) => {
    if (e.type !== 'tool-call' && e.type !== 'tool-result') return;
    const key = `${e.iteration}:${e.slot}`;
    let card = cards.get(key);
    if (!card) cards.set(key, (card = { iteration: e.iteration, slot: e.slot, calls: [], results: [] }));
    (e.type === 'tool-call' ? card.calls : card.results).push(i);
  });
  return [...cards.values()].sort((a, b) => a.iteration - b.iteration || a.slot - b.slot);
}

/**
 * Invariant 1 over a whole turn: every slot has exactly one `tool-call` then exactly one
 * `tool-result` with the same id; slots of an iteration are 0..n-1 with no gap. With
 * `open: true` (a turn torn down by unsubscribing) a slot may end with its card still open.
 * Returns the problems found (empty = the invariant holds).
 *
 * @example
 * ```ts
 * expect(slotProblems(events)).toEqual([]);
 * ```
 */
export function slotProblems(events: readonly TurnEvent[], options: { open?: boolean } = {}): string[] {
  const problems: string[] = [];
  const perIteration = new Map<number, number[]>();
  for (const card of slotCards(events)) {
    const where = `iteration ${card.iteration} slot ${card.slot}`;
    perIteration.set(card.iteration, [...(perIteration.get(card.iteration) ?? []), card.slot]);
    if (card.calls.length !== 1) problems.push(`${where}: ${card.calls.length} tool-call events`);
    const maxResults = 1;
    if (card.results.length > maxResults || (card.results.length === 0 && !options.open)) {
      problems.push(`${where}: ${card.results.length} tool-result events`);
    }
    if (card.calls.length === 0 || card.results.length === 0) continue;
    if (card.calls[0] > card.results[0]) problems.push(`${where}: tool-result before tool-call`);
    const call = events[card.calls[0]] as TurnEventOf<'tool-call'>;
    const result = events[card.results[0]] as TurnEventOf<'tool-result'>;
    if (call.id !== result.id) problems.push(`${where}: call id ${call.id} but result id ${result.id}`);
    if (call.name !== result.name) problems.push(`${where}: call name ${call.name} but result name ${result.name}`);
  }
  for (const [iteration, slots] of perIteration) {
    if (slots.some((slot, k) => slot !== k)) problems.push(`iteration ${iteration}: slots ${slots.join(',')} are not 0..n-1`);
  }
  return problems;
}

/** The `tool-result` events of an iteration indexed by slot. */
export function resultsBySlot(events: readonly TurnEvent[], iteration = 1): TurnEventOf<'tool-result'>[] {
  const out: TurnEventOf<'tool-result'>[] = [];
  for (const e of events) if (e.type === 'tool-result' && e.iteration === iteration) out[e.slot] = e;
  return out;
}

/** The events of one type. */
export const ofType = <T extends TurnEvent['type']>(events: readonly TurnEvent[], type: T): TurnEventOf<T>[] =>
  events.filter((e): e is TurnEventOf<T> => e.type === type);
