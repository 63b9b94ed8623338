import { asyncScheduler } from 'rxjs';

/** Where the loop reads time. */
export interface Clock {
  now(): number;
}

/**
 * The default clock reads RxJS's async scheduler: wall time normally, virtual time inside
 * `TestScheduler.run`, so marble tests see virtual durations without any wiring.
 */
export const defaultClock: Clock = Object.freeze({ now: () => asyncScheduler.now() });

/**
 * The default id generator: a random UUID, as one flat string. Node builds a UUID by joining
 * pieces, which the engine keeps apart until something reads the string; a turn's id lives as
 * long as the turn, so reading one character here joins it into one smaller string
 * (bench/RESULTS.md, "Choices in src/ made for speed").
 *
 * @example
 * ```ts
 * const turnId = defaultIds(); // '5c5bd28b-afff-40f7-bf7d-f1fd6bf798f8'
 * ```
 */
export const defaultIds = (): string => {
  const id = crypto.randomUUID();
  id.charCodeAt(0); // flattens it in place (also in optimized code: checked with a heap snapshot)
  return id;
};
