import { Observable, type OperatorFunction, type Subscription } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';

/**
 * Joins two stages of the loop: turn events pass straight through, and each result of the first
 * stage (any value that is not an event) is replaced by what `project` returns for it — the
 * next stage's events and result. Like `mergeMap` for the results, with the events left as they
 * are (no Observable per event). Completes when the source and every projected stage completed.
 *
 * ```
 * source:  -e-e--r|          e: events, r: the stage's result
 * project:        -e-s|       (for r)
 * result:  -e-e---e-s|
 * ```
 * @example
 * ```ts
 * callProvider(it, buildRequest(it)).pipe(continueWith((response) => afterResponse(it, response)));
 * ```
 */
export function continueWith<T extends object, R>(
  project: (value: T) => Observable<TurnEvent | R>,
): OperatorFunction<TurnEvent | T, TurnEvent | R> {
  return (source) =>
    new Observable<TurnEvent | R>((subscriber) => {
      let active = 0;
      let sourceDone = false;
      const inners: Subscription[] = [];
      const innerDone = (): void => {
        active--;
        if (sourceDone && active === 0) subscriber.complete();
      };
      const sourceSub = source.subscribe({
        next: (value) => {
          if (isTurnEvent(value)) {
            subscriber.next(value);
            return;
          }
          let next$: Observable<TurnEvent | R>;
          try {
            next$ = project(value as T);
          } catch (err) {
            subscriber.error(err);
            return;
          }
          active++;
          inners.push(next$.subscribe({ next: (v) => subscriber.next(v), error: (err: unknown) => subscriber.error(err), complete: innerDone }));
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          sourceDone = true;
          if (active === 0) subscriber.complete();
        },
      });
      return () => {
        sourceSub.unsubscribe();
        for (const inner of inners) inner.unsubscribe();
      };
    });
}
