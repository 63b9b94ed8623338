import { EMPTY, from, Observable, type MonoTypeOperatorFunction, type ObservableInput } from 'rxjs';
import { subscribeStage } from '../runtime/stage-subscriber.js';

/**
 * `expand` for a turn's stream, where most values are events that expand to nothing. Same
 * contract as RxJS's `expand(project)` (no concurrency limit): every value of the source and of
 * each projection is emitted, then projected with its index, and the projection is subscribed;
 * the result completes when the source and every projection completed; any error errors it;
 * unsubscribing tears every projection down. The difference: a projection that is the `EMPTY`
 * constant is not subscribed (subscribing to it only completes), so an event costs one call of
 * `project` instead of an inner subscription. marbles/expand-steps.marble.test.ts runs the same
 * specs against both.
 *
 * ```
 * source:  -a-------|          project: a → -b|, b → EMPTY
 * result:  -a-b-----|
 * ```
 * @example
 * ```ts
 * iterate(turn, snapshot).pipe(expandSteps((v) => (isIterationStep(v) && v.kind === 'next' ? iterate(turn, v.snapshot) : EMPTY)));
 * ```
 * @param project Maps each value (and its index) to the values it expands to.
 * @return Every value, and every value its projections produce, recursively.
 */
export function expandSteps<T>(project: (value: T, index: number) => ObservableInput<T>): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let active = 0;
      let index = 0;
      let sourceDone = false;
      const checkComplete = (): void => {
        if (sourceDone && active === 0) subscriber.complete();
      };
      const innerDone = (): void => {
        active--;
        checkComplete();
      };
      const onValue = (value: T): void => {
        subscriber.next(value);
        if (subscriber.closed) return;
        let next: ObservableInput<T>;
        try {
          next = project(value, index++);
        } catch (err) {
          subscriber.error(err);
          return;
        }
        if (next === EMPTY) return;
        active++;
        // tied to `subscriber` before it runs, so a teardown that comes meanwhile closes it at once
        subscribeStage(from(next), subscriber, onValue, innerDone);
      };
      return subscribeStage(source, subscriber, onValue, () => {
        sourceDone = true;
        checkComplete();
      });
    });
}
