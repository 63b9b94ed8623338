import { isObservable, type Observable, type Subscriber } from 'rxjs';

/**
 * Ends a stage with its last answer: a value is emitted and the stage completes; an Observable
 * takes the Subscriber over (its values and its end are the stage's, its teardown tied to the
 * Subscriber), as `concat` would hand over to it.
 *
 * @example
 * ```ts
 * finishWith(subscriber, prepareFrom(call, first, steps, ctx)); // the call, or the steps still to wait for
 * ```
 */
export function finishWith<T>(subscriber: Subscriber<T>, last: T | Observable<T>): void {
  if (isObservable(last)) {
    last.subscribe(subscriber);
    return;
  }
  subscriber.next(last);
  subscriber.complete();
}
