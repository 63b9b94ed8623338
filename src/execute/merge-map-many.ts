import { from, type Observable, type ObservableInput, type OperatorFunction, Subscriber, type TeardownLogic } from 'rxjs';
import { LeanSubscriber } from '../runtime/lean-subscriber.js';
import { StageObservable } from '../runtime/stage-observable.js';
import { subscribeStage } from '../runtime/stage-subscriber.js';

/**
 * `mergeMap` for batches where thousands of inner Observables run at once. Same contract as
 * RxJS's `mergeMap(project, concurrent)`: each source value is projected in order, at most
 * `concurrent` inner Observables are subscribed at a time (the rest wait in order), their values
 * are emitted as they come, a waiting value is subscribed once an inner completes and is torn
 * down, the result completes when the source and every inner completed, any error errors the
 * result, and unsubscribing tears every inner down. The difference is its bookkeeping: RxJS
 * keeps each inner subscription in its Subscriber's list of finalizers and removes it with an
 * `indexOf` and a `splice`, which costs O(n²) over n inners that run together; here each one is
 * linked into and out of a list of the running inners, O(1), with one Subscriber per inner.
 * marbles/merge-map-many.marble.test.ts runs the same specs against both.
 *
 * ```
 * source:  -a-b-c|             concurrent 2
 * a inner:  --x|
 * b inner:    ----y|
 * c inner:      -z|            (c waits until a's inner ended)
 * result:  ---x--zy|
 * ```
 * @example
 * ```ts
 * from(batch).pipe(mergeMapMany((call) => executeOne(it, call), 10_000));
 * ```
 * @param project Maps each source value (and its index) to an ObservableInput.
 * @param concurrent How many inner Observables run at once (default: no limit).
 * @return The inner Observables' values, merged.
 */
export function mergeMapMany<T, R>(project: (value: T, index: number) => ObservableInput<R>, concurrent = Infinity): OperatorFunction<T, R> {
  return (source) => new StageObservable(openMerge<T, R>, source, project, concurrent);
}

function openMerge<T, R>(subscriber: Subscriber<R>, source: Observable<T>, project: (value: T, index: number) => ObservableInput<R>, concurrent: number): TeardownLogic {
  // the operator's state in one object, its callbacks shared: no closures per subscription
  const state: MergeState<T, R> = {
    subscriber,
    project,
    concurrent,
    waiting: [],
    head: 0,
    active: 0,
    index: 0,
    sourceDone: false,
    first: undefined,
    last: undefined,
    unsubscribe: stopAll,
  };
  // Registered first, so a teardown that comes while the source or an inner is still being
  // subscribed (a tool that cancels its own turn) closes every inner at once, as mergeMap's does.
  subscriber.add(state);
  subscribeStage(source, subscriber, sourceNext<T, R>, sourceComplete<T, R>, undefined, state);
}

/** One subscription's state: the values waiting, and the running inners as a list through the inners themselves (no Set per batch). */
interface MergeState<T, R> {
  readonly subscriber: Subscriber<R>;
  readonly project: (value: T, index: number) => ObservableInput<R>;
  readonly concurrent: number;
  readonly waiting: T[];
  head: number;
  active: number;
  index: number;
  sourceDone: boolean;
  first: InnerSubscriber<R> | undefined;
  last: InnerSubscriber<R> | undefined;
  /** The teardown: every running inner, in the order they started (as mergeMap's). */
  readonly unsubscribe: (this: MergeState<T, R>) => void;
}

function sourceNext<T, R>(this: MergeState<T, R>, value: T): void {
  if (this.subscriber.closed) return;
  if (this.active < this.concurrent) start(this, value);
  else this.waiting.push(value);
}

function sourceComplete<T, R>(this: MergeState<T, R>): void {
  this.sourceDone = true;
  checkComplete(this);
}

function stopAll<T, R>(this: MergeState<T, R>): void {
  const running: InnerSubscriber<R>[] = [];
  for (let inner = this.first; inner; inner = inner.after) running.push(inner);
  for (const inner of running) inner.unsubscribe(); // in the order they started, as mergeMap's
  this.first = this.last = undefined;
  if (this.waiting.length > 0) this.waiting.length = 0;
}

function start<T, R>(state: MergeState<T, R>, value: T): void {
  state.active++;
  let inner$: Observable<R>;
  try {
    inner$ = from(state.project(value, state.index++));
  } catch (err) {
    state.subscriber.error(err);
    return;
  }
  const inner = new InnerSubscriber(state as MergeState<unknown, R>);
  // in the list before the inner runs, so a teardown meanwhile closes it at once (as mergeMap's does)
  inner.before = state.last;
  if (state.last) state.last.after = inner;
  else state.first = inner;
  state.last = inner;
  inner$.subscribe(inner);
}

/** An inner ended (completed, errored or torn down): out of the list; when it completed, the next one starts. */
function ended<R>(state: MergeState<unknown, R>, inner: InnerSubscriber<R>): void {
  if (inner.before) inner.before.after = inner.after;
  else if (state.first === inner) state.first = inner.after;
  if (inner.after) inner.after.before = inner.before;
  else if (state.last === inner) state.last = inner.before;
  inner.before = inner.after = undefined;
  if (!inner.completed) return;
  state.active--;
  startNext(state);
  checkComplete(state);
}

function startNext<T, R>(state: MergeState<T, R>): void {
  const { waiting } = state;
  while (state.active < state.concurrent && state.head < waiting.length && !state.subscriber.closed) {
    const value = waiting[state.head];
    waiting[state.head++] = undefined as T; // let it go
    start(state, value);
  }
  if (state.head > 0 && state.head === waiting.length) {
    waiting.length = 0;
    state.head = 0;
  }
}

function checkComplete<T, R>(state: MergeState<T, R>): void {
  if (state.sourceDone && state.active === 0 && state.head === state.waiting.length) state.subscriber.complete();
}

/**
 * One inner Observable's Subscriber: values and errors go to the result; `ended` runs after the
 * inner's own teardown (as mergeMap's finalizer does), once, whether it completed or was torn
 * down. One object per inner, instead of a wrapper Observable and its Subscriber.
 */
class InnerSubscriber<R> extends LeanSubscriber<R> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new InnerSubscriber(shapeState());

  completed = false;
  /** Its neighbours in the list of running inners. */
  before: InnerSubscriber<R> | undefined = undefined;
  after: InnerSubscriber<R> | undefined = undefined;

  constructor(private readonly state: MergeState<unknown, R>) {
    super();
    this.lean(null); // values, errors and completion are handled here
  }

  protected override _next(value: R): void {
    this.state.subscriber.next(value);
  }

  protected override _error(err: unknown): void {
    this.state.subscriber.error(err);
    this.unsubscribe();
  }

  protected override _complete(): void {
    this.completed = true;
    this.unsubscribe();
  }

  override unsubscribe(): void {
    if (this.closed) return;
    super.unsubscribe();
    ended(this.state, this);
  }
}

/** The state `InnerSubscriber`'s kept instance points to. */
function shapeState<R>(): MergeState<unknown, R> {
  const subscriber = new Subscriber<R>();
  return { subscriber, project: () => [], concurrent: 1, waiting: [], head: 0, active: 0, index: 0, sourceDone: false, first: undefined, last: undefined, unsubscribe: stopAll };
}
