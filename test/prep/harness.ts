import { lastValueFrom, tap, toArray } from 'rxjs';
import type { Agent, ApprovalAnswerInput, ApprovalFrontDoor, ApprovalRequest, ChatMessage, TurnEvent, TurnEventOf, TurnInput } from '../../src/index.js';

/** Shared by the preparation and approval tests: a turn that ran to its end, with every event. */
export interface TurnRecord {
  readonly events: TurnEvent[];
  readonly done: TurnEventOf<'done'>;
}

/** Runs a turn to its end, pushing each event onto `events`. */
const play = (agent: Agent, input: TurnInput | string, events: TurnEvent[]) =>
  lastValueFrom(agent.run(typeof input === 'string' ? { message: input } : input).pipe(tap((e) => events.push(e)), toArray()));

/** A turn that failed as its test expected: the events before the failure, and the error. */
export interface FailedTurn<E> {
  readonly events: TurnEvent[];
  readonly error: E;
}

/**
 * Runs a turn to its `done` event, collecting its events. A turn that fails rejects with its error
 * (so the test fails): a crash never reads as a denial. A test that expects a failure uses
 * `runFailingTurn` and names the error.
 */
export async function runTurn(agent: Agent, input: TurnInput | string = 'go'): Promise<TurnRecord> {
  const events: TurnEvent[] = [];
  await play(agent, input, events);
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error(`the turn completed without ending on done (last event: ${done?.type ?? 'none'})`);
  return { events, done };
}

/**
 * Runs a turn that must fail with an `expected` error; a turn that ends with `done`, or fails
 * with another error, rejects (so the test fails).
 */
export async function runFailingTurn<E extends Error>(
  agent: Agent,
  expected: abstract new (...args: never[]) => E,
  input: TurnInput | string = 'go',
): Promise<FailedTurn<E>> {
  const events: TurnEvent[] = [];
  try {
    await play(agent, input, events);
  } catch (error) {
    if (error instanceof expected) return { events, error };
    throw error;
  }
  throw new Error(`the turn ended with ${events.at(-1)?.type ?? 'no event'}, not with the expected ${expected.name}`);
}

/** The events of one type. */
export const ofType = <T extends TurnEvent['type']>(events: readonly TurnEvent[], type: T): TurnEventOf<T>[] =>
  events.filter((e): e is TurnEventOf<T> => e.type === type);

/** `[name, outcome, success, output]` of each tool-result, by slot order within each iteration. */
export const outcomes = (events: readonly TurnEvent[]) =>
  ofType(events, 'tool-result')
    .sort((a, b) => a.iteration - b.iteration || a.slot - b.slot)
    .map((r) => [r.name, r.outcome, r.success, r.output] as const);

/** The `role: tool` contents of a history, in order. */
export const toolContents = (history: readonly ChatMessage[]) => history.flatMap((m) => (m.role === 'tool' ? [m.content] : []));

/** A front door that answers from a list (then null) and records every request it was asked. */
export function scriptedDoor(answers: ApprovalAnswerInput[], name = 'test-door'): ApprovalFrontDoor & { readonly asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    name,
    asked,
    ask: (request) => {
      asked.push(request);
      return answers.length > 0 ? answers.shift()! : null;
    },
  };
}

/** A logger that records warnings. */
export function recordingLogger() {
  const warnings: { obj: object; msg?: string }[] = [];
  const noop = () => {};
  return { warnings, debug: noop, info: noop, error: noop, warn: (obj: object, msg?: string) => warnings.push({ obj, msg }) };
}
