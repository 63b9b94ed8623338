import { Observable, type Subscriber, type TeardownLogic } from 'rxjs';

/**
 * The Observable of one of the loop's stages, built without a closure: the stage's arguments
 * are fields, and `open`, one function shared by every Observable of that stage, subscribes
 * with them. It behaves as `new Observable((subscriber) => open(subscriber, a, b, c))`: each
 * subscription calls `open` anew, what `open` returns is the subscription's teardown, and what
 * it throws errors the subscriber. That form makes a closure and its context for every stage
 * built, and the loop builds a dozen stages per iteration (bench/RESULTS.md, "Session 10").
 *
 * It subscribes through `_subscribe`, the method RxJS 7's own Observable subclasses (`Subject`,
 * `ConnectableObservable`) override; the stack pins RxJS 7 (DESIGN.md).
 *
 * @example
 * ```ts
 * const counted = (source: Observable<number>) => new StageObservable(openCount, source, 0, undefined);
 * function openCount(subscriber: Subscriber<number>, source: Observable<number>, start: number): TeardownLogic {
 *   let n = start;
 *   return source.subscribe({ next: () => subscriber.next(++n), complete: () => subscriber.complete() });
 * }
 * ```
 */
export class StageObservable<R, A = undefined, B = undefined, C = undefined> extends Observable<R> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new StageObservable(() => undefined, undefined, undefined, undefined);

  /**
   * @param open Subscribes `subscriber` to the stage with its arguments; returns the teardown.
   * @param a The stage's first argument (often its source).
   * @param b Its second argument.
   * @param c Its third argument.
   */
  constructor(
    private readonly open: (subscriber: Subscriber<R>, a: A, b: B, c: C) => TeardownLogic,
    private readonly a: A,
    private readonly b: B,
    private readonly c: C,
  ) {
    super();
  }

  /** What `subscribe` calls (inside RxJS's own try/catch) for each new Subscriber. */
  protected _subscribe(subscriber: Subscriber<R>): TeardownLogic {
    return this.open(subscriber, this.a, this.b, this.c);
  }
}
