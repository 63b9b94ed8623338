import { from, Observable, type ObservableInput, type OperatorFunction, Subscriber } from 'rxjs';
import { InnerSubscriber } from '../runtime/inner-subscriber.js';
import { Stage } from '../runtime/stage.js';

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
      const merge = new MergeSubscriber(subscriber, project, concurrent);
      // Registered first, so a teardown that comes while the source or an inner is still being
      // subscribed (a tool that cancels its own turn) closes every inner at once, as mergeMap's does.
      subscriber.add(() => merge.closeInners());
      subscriber.add(merge);
      source.subscribe(merge);
    });
}

/**
 * The source's Subscriber, with the operator's state as fields rather than closures (what a
 * waiting turn keeps alive: bench/RESULTS.md, "Session 8"). The running inners are a list
 * through the inners themselves, in the order they started (no Set per batch).
 */
class MergeSubscriber<T, R> extends Stage<T, R> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new MergeSubscriber<never, never>(new Subscriber<never>(), () => [], 1);

  /** Values waiting for a free slot (made when the first one waits), from `#head` on. */
  #waiting: T[] | undefined = undefined;
  #head = 0;
  #active = 0;
  #index = 0;
  #sourceDone = false;
  #first: InnerSubscriber<R> | undefined = undefined;
  #last: InnerSubscriber<R> | undefined = undefined;

  constructor(
    out: Subscriber<R>,
    private readonly project: (value: T, index: number) => ObservableInput<R>,
    private readonly concurrent: number,
  ) {
    super(out);
  }

  protected onValue(value: T): void {
    if (this.out.closed) return;
    if (this.#active < this.concurrent) this.#start(value);
    else (this.#waiting ??= []).push(value);
  }

  protected override onEnd(): void {
    this.#sourceDone = true;
    this.#checkComplete();
  }

  /** An inner ended (after its own teardown): out of the list, and a waiting value takes its slot. */
  ended(inner: InnerSubscriber<R>): void {
    if (inner.before) inner.before.after = inner.after;
    else if (this.#first === inner) this.#first = inner.after;
    if (inner.after) inner.after.before = inner.before;
    else if (this.#last === inner) this.#last = inner.before;
    inner.before = inner.after = undefined;
    if (!inner.completed) return;
    this.#active--;
    this.#startNext();
    this.#checkComplete();
  }

  /** The result's teardown: every running inner, in the order they started (as mergeMap's), and no more waiting. */
  closeInners(): void {
    const running: InnerSubscriber<R>[] = [];
    for (let inner = this.#first; inner; inner = inner.after) running.push(inner);
    for (const inner of running) inner.unsubscribe();
    this.#first = this.#last = undefined;
    if (this.#waiting !== undefined) this.#waiting.length = 0;
  }

  #checkComplete(): void {
    if (this.#sourceDone && this.#active === 0 && this.#head === (this.#waiting?.length ?? 0)) this.out.complete();
  }

  #startNext(): void {
    const waiting = this.#waiting;
    if (waiting === undefined) return;
    while (this.#active < this.concurrent && this.#head < waiting.length && !this.out.closed) {
      const value = waiting[this.#head];
      waiting[this.#head++] = undefined as T; // let it go
      this.#start(value);
    }
    if (this.#head === waiting.length) {
      waiting.length = 0;
      this.#head = 0;
    }
  }

  #start(value: T): void {
    this.#active++;
    let inner$: Observable<R>;
    try {
      inner$ = from(this.project(value, this.#index++));
    } catch (err) {
      this.out.error(err);
      return;
    }
    const inner = new InnerSubscriber(this.out, this);
    // in the list before the inner runs, so a teardown meanwhile closes it at once (as mergeMap's does)
    inner.before = this.#last;
    if (this.#last) this.#last.after = inner;
    else this.#first = inner;
    this.#last = inner;
    inner$.subscribe(inner);
  }
}
