import { lastValueFrom, tap, toArray } from 'rxjs';
import type { Agent, ApprovalAnswerInput, ApprovalFrontDoor, ApprovalRequest, ChatMessage, TurnEvent, TurnEventOf, TurnInput } from '../../src/index.js';

/** Shared by the preparation and approval tests: run a turn to its end and keep every event. */
export interface TurnRecord {
  readonly events: TurnEvent[];
  readonly done?: TurnEventOf<'done'>;
  readonly error?: unknown;
}

/** Runs a turn, collecting its events; a failed turn is returned with its error, not thrown. */
export async function runTurn(agent: Agent, input: TurnInput | string = 'go'): Promise<TurnRecord> {
  const events: TurnEvent[] = [];
  try {
    await lastValueFrom(agent.run(typeof input === 'string' ? { message: input } : input).pipe(tap((e) => events.push(e)), toArray()));
  } catch (error) {
    return { events, error };
  }
  const done = events.find((e): e is TurnEventOf<'done'> => e.type === 'done');
  return { events, done };
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
