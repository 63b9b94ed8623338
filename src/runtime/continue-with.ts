import { isObservable, type Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { StageObservable } from './stage-observable.js';
import { subscribeStage } from './stage-subscriber.js';

/**
 * Joins two stages of the loop: turn events pass straight through, and each result of the first
 * stage (any value that is not an event) is replaced by what `project` returns for it — the
 * next stage's events and result. Like `mergeMap` for the results, with the events left as they
 * are (no Observable per event). Completes when the source and every projected stage completed.
 * A projection that returns the next stage's result itself (not an Observable) is emitted at
 * once, as `of(result)` would be, without a subscription.
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
  project: (value: T) => Observable<TurnEvent | R> | R,
): OperatorFunction<TurnEvent | T, TurnEvent | R> {
  return (source) => new StageObservable(openContinue<T, R>, source, project, undefined);
}

function openContinue<T extends object, R>(
  subscriber: Subscriber<TurnEvent | R>,
  source: Observable<TurnEvent | T>,
  project: (value: T) => Observable<TurnEvent | R> | R,
): void {
  // the stage's state in one object, its callbacks shared: no closures per subscription
  const state: ContinueState<T, R> = { subscriber, project, active: 0, sourceDone: false };
  // each subscription is tied to `subscriber`: unsubscribing tears the source, then every stage, down
  subscribeStage(source, subscriber, sourceNext<T, R>, sourceComplete<T, R>, undefined, state);
}

interface ContinueState<T, R> {
  readonly subscriber: Subscriber<TurnEvent | R>;
  readonly project: (value: T) => Observable<TurnEvent | R> | R;
  active: number;
  sourceDone: boolean;
}

function sourceNext<T extends object, R>(this: ContinueState<T, R>, value: TurnEvent | T): void {
  const { subscriber } = this;
  if (isTurnEvent(value)) {
    subscriber.next(value);
    return;
  }
  let next: Observable<TurnEvent | R> | R;
  try {
    next = this.project(value as T);
  } catch (err) {
    subscriber.error(err);
    return;
  }
  if (!isObservable(next)) {
    subscriber.next(next);
    return;
  }
  this.active++;
  subscribeStage(next, subscriber, forward<T, R>, innerDone<T, R>, undefined, this);
}

function sourceComplete<T, R>(this: ContinueState<T, R>): void {
  this.sourceDone = true;
  if (this.active === 0) this.subscriber.complete();
}

function forward<T, R>(this: ContinueState<T, R>, value: TurnEvent | R): void {
  this.subscriber.next(value);
}

function innerDone<T, R>(this: ContinueState<T, R>): void {
  this.active--;
  if (this.sourceDone && this.active === 0) this.subscriber.complete();
}
