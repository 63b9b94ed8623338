import { EMPTY, from, type MonoTypeOperatorFunction, type Observable, type ObservableInput, type Subscriber, type TeardownLogic } from 'rxjs';
import { StageObservable } from '../runtime/stage-observable.js';
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
  return (source) => new StageObservable(openExpansion<T>, source, project, undefined);
}

function openExpansion<T>(subscriber: Subscriber<T>, source: Observable<T>, project: (value: T, index: number) => ObservableInput<T>): TeardownLogic {
  // the operator's state in one object, its callbacks shared: no closures per subscription
  const state: Expansion<T> = { subscriber, project, active: 0, index: 0, sourceDone: false };
  subscribeStage(source, subscriber, onValue<T>, sourceComplete<T>, undefined, state);
}

interface Expansion<T> {
  readonly subscriber: Subscriber<T>;
  readonly project: (value: T, index: number) => ObservableInput<T>;
  /** Projections subscribed and not completed. */
  active: number;
  index: number;
  sourceDone: boolean;
}

function onValue<T>(this: Expansion<T>, value: T): void {
  const { subscriber } = this;
  subscriber.next(value);
  if (subscriber.closed) return;
  let next: ObservableInput<T>;
  try {
    next = this.project(value, this.index++);
  } catch (err) {
    subscriber.error(err);
    return;
  }
  if (next === EMPTY) return;
  this.active++;
  // tied to `subscriber` before it runs, so a teardown that comes meanwhile closes it at once
  subscribeStage(from(next), subscriber, onValue<T>, innerDone<T>, undefined, this);
}

function sourceComplete<T>(this: Expansion<T>): void {
  this.sourceDone = true;
  if (this.active === 0) this.subscriber.complete();
}

function innerDone<T>(this: Expansion<T>): void {
  this.active--;
  if (this.sourceDone && this.active === 0) this.subscriber.complete();
}
