import type { Subscriber } from 'rxjs';
import { LeanSubscriber } from './lean-subscriber.js';

/**
 * The base of an operator's own Subscriber to its source, when the operator keeps state: the
 * state is the subclass's fields and its handling is methods, where `subscribeStage` takes a
 * closure for each and the operator's state lives in their shared context. A turn that waits
 * keeps its stages alive, and each young-generation collection copies them, so one object per
 * stage is what the server regime wants (bench/RESULTS.md, "Session 8").
 *
 * Each value goes to `onValue`, completion to `onEnd` (default: `out` completes), errors to
 * `out`; what `onValue` or `onEnd` throws errors `out`, as in RxJS's own operators. The
 * subclass adds itself to `out` (`out.add(stage)`), so unsubscribing `out` tears the source down.
 *
 * @example
 * ```ts
 * class Count<T> extends Stage<T, number> {
 *   #n = 0;
 *   protected onValue(): void { this.#n++; }
 *   protected override onEnd(): void { this.out.next(this.#n); this.out.complete(); }
 * }
 * new Observable<number>((subscriber) => {
 *   const stage = new Count<T>(subscriber);
 *   subscriber.add(stage);
 *   source.subscribe(stage);
 * });
 * ```
 */
export abstract class Stage<T, R> extends LeanSubscriber<T> {
  /** @param out The operator's result: what this stage emits to. */
  constructor(readonly out: Subscriber<R>) {
    super(); // `super(out)` would add this one to it before LeanSubscriber's fields exist
    this.destination = out;
  }

  /** A value of the source. */
  protected abstract onValue(value: T): void;

  /** The source completed. */
  protected onEnd(): void {
    this.out.complete();
  }

  protected override _next(value: T): void {
    try {
      this.onValue(value);
    } catch (err) {
      this.out.error(err);
    }
  }

  protected override _complete(): void {
    try {
      this.onEnd();
    } catch (err) {
      this.out.error(err);
    } finally {
      this.unsubscribe();
    }
  }
}
