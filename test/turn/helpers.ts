import { lastValueFrom, toArray } from 'rxjs';
import type { Agent, TurnEvent, TurnInput } from '../../src/index.js';

/** Runs a turn to completion and returns every event it emitted. */
export const collect = (agent: Agent, input: TurnInput): Promise<TurnEvent[]> => lastValueFrom(agent.run(input).pipe(toArray()));

/** The events of one type. */
export const ofType = <T extends TurnEvent['type']>(events: TurnEvent[], type: T) =>
  events.filter((e): e is Extract<TurnEvent, { type: T }> => e.type === type);

/** The `done` event of a turn. */
export const doneOf = (events: TurnEvent[]) => {
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error(`the turn ended with ${done?.type}, not done`);
  return done;
};
