import { isObservable, Observable, Subscriber, type OperatorFunction } from 'rxjs';
import { InnerSubscriber } from './inner-subscriber.js';
import { Stage } from './stage.js';

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
  return (source) =>
    new Observable<R>((subscriber) => {
      const concat = new ConcatSubscriber(subscriber, project);
      // registered first, so a teardown that comes while a projection is being subscribed closes it at once
      subscriber.add(() => concat.closeInner());
      subscriber.add(concat);
      source.subscribe(concat);
    });
}

/**
 * The source's Subscriber, with the operator's state as fields rather than closures (what a
 * waiting turn keeps alive: bench/RESULTS.md, "Session 8"). A projection that is an Observable
 * runs in a Subscriber of its own, which runs the next waiting value once it ended.
 */
class ConcatSubscriber<T, R> extends Stage<T, R> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new ConcatSubscriber<never, never>(new Subscriber<never>(), () => undefined as never);

  /** Values waiting behind the running projection (made when the first one waits), from `#head` on. */
  #waiting: T[] | undefined = undefined;
  #head = 0;
  #index = 0;
  /** The running projection's Subscriber, held before the projection runs (as concatMap's). */
  #inner: Subscriber<R> | undefined = undefined;
  #busy = false;
  #sourceDone = false;

  constructor(
    out: Subscriber<R>,
    private readonly project: (value: T, index: number) => Observable<R> | R,
  ) {
    super(out);
  }

  protected onValue(value: T): void {
    if (this.out.closed) return;
    if (this.#busy) (this.#waiting ??= []).push(value);
    else this.#run(value);
  }

  protected override onEnd(): void {
    this.#sourceDone = true;
    if (!this.#busy) this.out.complete();
  }

  /** The result's teardown: the running projection, and no more waiting. */
  closeInner(): void {
    this.#inner?.unsubscribe();
    if (this.#waiting !== undefined) this.#waiting.length = 0;
  }

  /** A projection's Subscriber ended (after the projection's own teardown, as concatMap's). */
  ended(inner: InnerSubscriber<R>): void {
    if (this.#inner === inner) this.#inner = undefined;
    if (!inner.completed) return;
    this.#busy = false;
    this.#drain();
  }

  #run(value: T): void {
    let projected: Observable<R> | R;
    try {
      projected = this.project(value, this.#index++);
    } catch (err) {
      this.out.error(err);
      return;
    }
    if (!isObservable(projected)) {
      this.out.next(projected);
      return;
    }
    this.#busy = true;
    const inner = new InnerSubscriber(this.out, this);
    this.#inner = inner;
    projected.subscribe(inner);
  }

  #drain(): void {
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      while (!this.#busy && this.#head < waiting.length && !this.out.closed) {
        const value = waiting[this.#head];
        waiting[this.#head++] = undefined as T; // let it go
        this.#run(value);
      }
      if (this.#head === waiting.length) {
        waiting.length = 0;
        this.#head = 0;
      }
    }
    if (!this.#busy && this.#sourceDone && this.#head === (this.#waiting?.length ?? 0)) this.out.complete();
  }
}
