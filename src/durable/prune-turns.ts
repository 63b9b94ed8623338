import { catchError, defer, EMPTY, exhaustMap, type Observable, timer } from 'rxjs';
import { ConfigurationError } from '../core/errors.js';
import type { PruneResult, TurnStore } from './turn-store.js';

/** How long finished turns stay by default: 7 days, as long as pg-boss keeps its archived jobs by default (`deleteAfterDays`). */
export const DEFAULT_RETENTION_MS = 7 * 24 * 3_600_000;

/** Options of `pruneTurns` (and of `turnQueue`'s `retention`). */
export interface PruneTurnsOptions {
  /** Finished turns last written longer ago than this go. Default `DEFAULT_RETENTION_MS` (7 days). */
  readonly olderThanMs?: number;
  /** Time between two prunes. Default an hour. */
  readonly everyMs?: number;
  /** Turns deleted per statement. Default 500. */
  readonly batchSize?: number;
  /** Told of a prune that failed (the next one runs on time); default: nothing. */
  readonly onError?: (error: unknown) => void;
}

const positive = (value: number | undefined, fallback: number, what: string, zero: boolean): number => {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || (!zero && n === 0)) throw new ConfigurationError(`pruneTurns: ${what} must be a finite number of milliseconds${zero ? ', 0 or more' : ', more than 0'}.`);
  return n;
};

/**
 * Prunes a store on a timer: at once, then every `everyMs`, deletes the finished turns written
 * more than `olderThanMs` ago with their events and audit entries (`store.prune`); a queued,
 * running or parked turn is never deleted. A tick that comes while a prune still runs is
 * skipped; a prune that fails goes to `onError` and the timer goes on. Each result is emitted;
 * unsubscribing stops the timer. `turnQueue`'s workers run it (`retention`); an app without
 * workers subscribes to it itself.
 *
 * ```
 * timer:  a-----b-----c-----   (at once, then every everyMs)
 * prune:  -x-----#-----z----   (store.prune; b's fails)
 * output: -x-----------z----   (b's error went to onError)
 * ```
 * @example
 * ```ts
 * const pruning = pruneTurns(store, { olderThanMs: 30 * 24 * 3_600_000 }).subscribe(({ turns }) => console.log(`pruned ${turns} turns`));
 * // on shutdown:
 * pruning.unsubscribe();
 * ```
 * @param store The store to prune.
 * @param options How old a finished turn must be, and how often to look.
 * @return The results of the prunes, one per tick that ran.
 */
export function pruneTurns(store: TurnStore, options: PruneTurnsOptions = {}): Observable<PruneResult> {
  const olderThanMs = positive(options.olderThanMs, DEFAULT_RETENTION_MS, 'olderThanMs', true);
  const everyMs = positive(options.everyMs, 3_600_000, 'everyMs', false);
  const pruning = { olderThanMs, ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }) };
  return timer(0, everyMs).pipe(
    exhaustMap(() =>
      defer(() => store.prune(pruning)).pipe(
        catchError((error: unknown) => {
          options.onError?.(error);
          return EMPTY;
        }),
      ),
    ),
  );
}
