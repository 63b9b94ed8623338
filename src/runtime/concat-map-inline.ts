import { isObservable, Observable, type OperatorFunction, type Subscriber, type TeardownLogic } from 'rxjs';
import { StageObservable } from './stage-observable.js';
import { subscribeStage } from './stage-subscriber.js';

/**
 * `concatMap` for projections that are usually ready at once. Same contract as RxJS's
 * `concatMap(project)`: each source value is projected in order, one projection runs at a time
 * (values behind it wait in order), its values are emitted as they come, the result completes
 * when the source and the last projection completed, any error errors the result, and
 * unsubscribing tears the running projection down. The difference: a projection may return its
 * value itself instead of an Observable; that value is emitted at once, with no inner
 * subscription (the common case of `prepareCalls`, where no preparation step waits).
 * marbles/concat-map-inline.marble.test.ts runs the same specs against both.
 *
 * ```
 * source:  -a-b-c|            project: a → --x|, b → y (a value), c → -z|
 * result:  ---xy-z|           b waits behind a's projection, then y comes at once
 * ```
 * @example
 * ```ts
 * from(calls).pipe(concatMapInline((call) => (ready(call) ? call : prompt$(call))));
 * ```
 * @param project Maps each source value (and its index) to an Observable, or to the value itself.
 * @return The projections' values, in order.
 */
export function concatMapInline<T, R>(project: (value: T, index: number) => Observable<R> | R): OperatorFunction<T, R> {
  return (source) => new StageObservable(openConcat<T, R>, source, project, undefined);
}

function openConcat<T, R>(subscriber: Subscriber<R>, source: Observable<T>, project: (value: T, index: number) => Observable<R> | R): TeardownLogic {
  // the operator's state in one object, its callbacks shared: no closures per subscription
  const state: ConcatState<T, R> = {
    subscriber,
    project,
    waiting: [],
    head: 0,
    index: 0,
    inner: undefined,
    busy: false,
    sourceDone: false,
    unsubscribe: stopInner,
  };
  // registered first, so a teardown that comes while a projection is being subscribed closes it at once
  subscriber.add(state);
  subscribeStage(source, subscriber, sourceNext<T, R>, sourceComplete<T, R>, undefined, state);
}

interface ConcatState<T, R> {
  readonly subscriber: Subscriber<R>;
  readonly project: (value: T, index: number) => Observable<R> | R;
  readonly waiting: T[];
  head: number;
  index: number;
  /** The running projection's Subscriber. */
  inner: Subscriber<R> | undefined;
  busy: boolean;
  sourceDone: boolean;
  /** The teardown: the running projection, and nothing more waits. */
  readonly unsubscribe: (this: ConcatState<T, R>) => void;
}

function sourceNext<T, R>(this: ConcatState<T, R>, value: T): void {
  if (this.subscriber.closed) return;
  if (this.busy) this.waiting.push(value);
  else run(this, value);
}

function sourceComplete<T, R>(this: ConcatState<T, R>): void {
  this.sourceDone = true;
  if (!this.busy) this.subscriber.complete();
}

function stopInner<T, R>(this: ConcatState<T, R>): void {
  this.inner?.unsubscribe();
  if (this.waiting.length > 0) this.waiting.length = 0;
}

function run<T, R>(state: ConcatState<T, R>, value: T): void {
  const { subscriber } = state;
  let out: Observable<R> | R;
  try {
    out = state.project(value, state.index++);
  } catch (err) {
    subscriber.error(err);
    return;
  }
  if (!isObservable(out)) {
    subscriber.next(out);
    return;
  }
  state.busy = true;
  const inner$ = out;
  let completed = false;
  new Observable<R>((sub) => {
    // held before the projection runs, so a teardown meanwhile closes it at once (as concatMap's does)
    state.inner = sub;
    inner$.subscribe(sub);
    // after the projection's own teardown (at once when it already ended), as concatMap's
    sub.add(() => {
      if (state.inner === sub) state.inner = undefined;
      if (!completed) return;
      state.busy = false;
      drain(state);
    });
  }).subscribe({
    next: (v) => subscriber.next(v),
    error: (err: unknown) => subscriber.error(err),
    complete: () => {
      completed = true;
    },
  });
}

function drain<T, R>(state: ConcatState<T, R>): void {
  const { waiting, subscriber } = state;
  while (!state.busy && state.head < waiting.length && !subscriber.closed) {
    const value = waiting[state.head];
    waiting[state.head++] = undefined as T; // let it go
    run(state, value);
  }
  if (state.head > 0 && state.head === waiting.length) {
    waiting.length = 0;
    state.head = 0;
  }
  if (!state.busy && state.sourceDone && state.head === waiting.length) subscriber.complete();
}
