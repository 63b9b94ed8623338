import { Subscriber } from 'rxjs';
import { LeanSubscriber } from './lean-subscriber.js';

/**
 * One inner Observable's Subscriber, for operators that run inner Observables (`mergeMapMany`,
 * `concatMapInline`): values and errors go to the result; `owner.ended` runs after the inner's
 * own teardown (as RxJS's finalizers do), once, whether it completed or was torn down. One
 * object per inner, instead of a wrapper Observable and its Subscriber. `before` and `after`
 * link the inners that run together into a list, for an owner that keeps one.
 *
 * @example
 * ```ts
 * const inner = new InnerSubscriber(subscriber, { ended: (i) => (i.completed ? next() : undefined) });
 * inner$.subscribe(inner);
 * ```
 */
export class InnerSubscriber<R> extends LeanSubscriber<R> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new InnerSubscriber(new Subscriber<never>(), { ended: () => undefined });

  /** Whether the inner completed (rather than being torn down, or failing). */
  completed = false;
  /** Its neighbours in the owner's list of running inners. */
  before: InnerSubscriber<R> | undefined = undefined;
  after: InnerSubscriber<R> | undefined = undefined;

  /**
   * @param result Where the inner's values and error go.
   * @param owner Told once the inner ended.
   */
  constructor(
    private readonly result: Subscriber<R>,
    private readonly owner: { ended(inner: InnerSubscriber<R>): void },
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
    this.owner.ended(this);
  }
}
