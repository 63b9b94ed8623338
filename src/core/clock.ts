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

/** The default id generator. */
export const defaultIds = (): string => crypto.randomUUID();
