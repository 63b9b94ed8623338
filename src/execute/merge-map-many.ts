import { from, Observable, type ObservableInput, type OperatorFunction, Subscriber } from 'rxjs';
import { LeanSubscriber } from '../runtime/lean-subscriber.js';
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
  return (source) =>
    new Observable<R>((subscriber) => {
      const waiting: T[] = [];
      let head = 0;
      let active = 0;
      let index = 0;
      let sourceDone = false;
      // the running inners in the order they started, as a list through the inners themselves (no Set per batch)
      let first: InnerSubscriber<R> | undefined;
      let last: InnerSubscriber<R> | undefined;
      const ended = (inner: InnerSubscriber<R>): void => {
        if (inner.before) inner.before.after = inner.after;
        else if (first === inner) first = inner.after;
        if (inner.after) inner.after.before = inner.before;
        else if (last === inner) last = inner.before;
        inner.before = inner.after = undefined;
        if (!inner.completed) return;
        active--;
        startNext();
        checkComplete();
      };
      const checkComplete = (): void => {
        if (sourceDone && active === 0 && head === waiting.length) subscriber.complete();
      };
      const startNext = (): void => {
        while (active < concurrent && head < waiting.length && !subscriber.closed) {
          const value = waiting[head];
          waiting[head++] = undefined as T; // let it go
          start(value);
        }
        if (head === waiting.length) {
          waiting.length = 0;
          head = 0;
        }
      };
      const start = (value: T): void => {
        active++;
        let inner$: Observable<R>;
        try {
          inner$ = from(project(value, index++));
        } catch (err) {
          subscriber.error(err);
          return;
        }
        const inner = new InnerSubscriber(subscriber, ended);
        // in the list before the inner runs, so a teardown meanwhile closes it at once (as mergeMap's does)
        inner.before = last;
        if (last) last.after = inner;
        else first = inner;
        last = inner;
        inner$.subscribe(inner);
      };
      // Registered first, so a teardown that comes while the source or an inner is still being
      // subscribed (a tool that cancels its own turn) closes every inner at once, as mergeMap's does.
      subscriber.add(() => {
        const running: InnerSubscriber<R>[] = [];
        for (let inner = first; inner; inner = inner.after) running.push(inner);
        for (const inner of running) inner.unsubscribe(); // in the order they started, as mergeMap's
        first = last = undefined;
        waiting.length = 0;
      });
      return subscribeStage(
        source,
        subscriber,
        (value) => {
          if (subscriber.closed) return;
          if (active < concurrent) start(value);
          else waiting.push(value);
        },
        () => {
          sourceDone = true;
          checkComplete();
        },
      );
    });
}

/**
 * One inner Observable's Subscriber: values and errors go to the result; `ended` runs after the
 * inner's own teardown (as mergeMap's finalizer does), once, whether it completed or was torn
 * down. One object per inner, instead of a wrapper Observable and its Subscriber.
 */
class InnerSubscriber<R> extends LeanSubscriber<R> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new InnerSubscriber(new Subscriber<never>(), () => undefined);

  completed = false;
  /** Its neighbours in the list of running inners. */
  before: InnerSubscriber<R> | undefined = undefined;
  after: InnerSubscriber<R> | undefined = undefined;

  constructor(
    private readonly result: Subscriber<R>,
    private readonly ended: (inner: InnerSubscriber<R>) => void,
  ) {
    super();
  }

  protected override _next(value: R): void {
    this.result.next(value);
  }

  protected override _error(err: unknown): void {
    this.result.error(err);
    this.unsubscribe();
  }

  protected override _complete(): void {
    this.completed = true;
    this.unsubscribe();
  }

  override unsubscribe(): void {
    if (this.closed) return;
    super.unsubscribe();
    this.ended(this);
  }
}
