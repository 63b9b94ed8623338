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
 * The default id generator: a random UUID, as one flat string. Node builds a UUID by joining 20
 * pieces, which V8 keeps as a tree of some 20 strings (~450 bytes) until something reads it;
 * a turn's id lives as long as the turn. Reading one character joins it into one string of ~60
 * bytes (bench/RESULTS.md, "Session 9").
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
