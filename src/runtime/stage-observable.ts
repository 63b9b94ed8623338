import { config, Observable, type Observer, type OperatorFunction, Subscriber, type Subscription, type TeardownLogic } from 'rxjs';
import { withoutConstructor } from './without-constructor.js';

/**
 * The Observable of one of the loop's stages, built without a closure: the stage's arguments
 * are fields, and `open`, one function shared by every Observable of that stage, subscribes
 * with them. It behaves as `new Observable((subscriber) => open(subscriber, a, b, c))`: each
 * subscription calls `open` anew, what `open` returns is the subscription's teardown, and what
 * it throws errors the subscriber. That form makes a closure and its context for every stage
 * built, and the loop builds a dozen stages per iteration (bench/RESULTS.md, "Session 10").
 *
 * `subscribe` with a Subscriber (how one stage subscribes to the next) and `pipe` do what
 * RxJS's do, without the closure RxJS 7 makes per `subscribe` and per `pipe` of several
 * operators. It subscribes through `_subscribe`, the method RxJS 7's own Observable subclasses
 * (`Subject`, `ConnectableObservable`) override; the stack pins RxJS 7 (DESIGN.md).
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
export class StageObservable<R, A = undefined, B = undefined, C = undefined> extends withoutConstructor(Observable)<R> {
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

  /**
   * RxJS's `subscribe`: a Subscriber (as stages pass) is opened here, with what RxJS does for
   * it (`open` inside a try/catch, its teardown added to the Subscriber); anything else, or
   * RxJS's deprecated synchronous error handling, goes through RxJS's own.
   */
  override subscribe(observerOrNext?: Partial<Observer<R>> | ((value: R) => void) | null, error?: ((error: unknown) => void) | null, complete?: (() => void) | null): Subscription {
    if (!(observerOrNext instanceof Subscriber) || config.useDeprecatedSynchronousErrorHandling) {
      return error === undefined && complete === undefined
        ? super.subscribe(observerOrNext ?? undefined)
        : super.subscribe(observerOrNext as ((value: R) => void) | null, error, complete); // RxJS's deprecated form
    }
    const subscriber: Subscriber<R> = observerOrNext;
    let teardown: TeardownLogic;
    try {
      teardown = this.open(subscriber, this.a, this.b, this.c);
    } catch (err) {
      subscriber.error(err);
      return subscriber;
    }
    // a stage that subscribed through subscribeStage returns nothing: its Subscriber is already
    // tied to this one, and a call to `add` per stage is saved (bench/RESULTS.md, "Session 13")
    if (teardown) subscriber.add(teardown);
    return subscriber;
  }

  /**
   * RxJS's `pipe` (each operator applied to the last one's result), without a closure per call.
   * RxJS's overloads type each step; this signature is one every overload accepts.
   */
  override pipe(...operations: OperatorFunction<never, unknown>[]): Observable<never> {
    let result: Observable<unknown> = this;
    for (let i = 0; i < operations.length; i++) result = (operations[i] as OperatorFunction<unknown, unknown>)(result);
    return result as Observable<never>;
  }

  /** What RxJS's `subscribe` calls (inside its own try/catch) for each new Subscriber. */
  protected _subscribe(subscriber: Subscriber<R>): TeardownLogic {
    return this.open(subscriber, this.a, this.b, this.c);
  }
}
