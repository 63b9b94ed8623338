import { type Observable, Subscriber, type Subscription } from 'rxjs';
import { LeanSubscriber } from './lean-subscriber.js';

/**
 * The Subscriber a stage of the loop subscribes to its source with: each value goes to
 * `onNext`, which decides what the stage's own `destination` receives; completion goes to
 * `onComplete` (default: `destination` completes); errors go to `onError` (default: `destination`
 * errors). What `onNext` or `onComplete` throws errors `destination`, as in RxJS's own
 * operators. `subscribeStage` adds it to `destination`, so unsubscribing the stage tears its
 * source down. One object per subscription, where `source.subscribe({ next, error, complete })`
 * makes four (bench/RESULTS.md, "Fewer Subscribers per iteration"). A stage with state passes
 * it as `target`: its callbacks are functions shared by every subscription that get the state as
 * `this`, so a subscription makes one state object instead of a closure per callback and their
 * context (bench/RESULTS.md, "Session 9").
 *
 * @example
 * ```ts
 * new Observable<T>((subscriber) => subscribeStage(source, subscriber, (v) => subscriber.next(v)));
 * ```
 */
export class StageSubscriber<T, S = unknown> extends LeanSubscriber<T> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new StageSubscriber(new Subscriber<never>(), () => undefined);

  /**
   * @param target What the callbacks get as `this`: a stage keeps its state in one object and
   *   shares its callbacks between subscriptions, instead of closures made per subscription.
   */
  constructor(
    destination: Subscriber<never>,
    private readonly onNext: (this: S, value: T) => void,
    private readonly onComplete?: (this: S) => void,
    private readonly onError?: (this: S, err: unknown) => void,
    private readonly target?: S,
  ) {
    super();
    this.lean(destination);
  }

  protected override _next(value: T): void {
    try {
      this.onNext.call(this.target as S, value);
    } catch (err) {
      this.destination.error(err);
    }
  }

  protected override _error(err: unknown): void {
    const onError = this.onError;
    if (!onError) return super._error(err);
    try {
      onError.call(this.target as S, err);
    } catch (thrown) {
      this.destination.error(thrown);
    } finally {
      this.unsubscribe();
    }
  }

  protected override _complete(): void {
    const onComplete = this.onComplete;
    if (!onComplete) return super._complete();
    try {
      onComplete.call(this.target as S);
    } catch (err) {
      this.destination.error(err);
    } finally {
      this.unsubscribe();
    }
  }
}

/**
 * Subscribes `destination`'s stage to `source` through a `StageSubscriber`.
 *
 * @example
 * ```ts
 * return new Observable<T>((subscriber) => subscribeStage(source, subscriber, (v) => subscriber.next(v)));
 * ```
 * @example
 * ```ts
 * function onValue(this: { subscriber: Subscriber<number>; seen: number }, v: number) { this.seen++; this.subscriber.next(v); }
 * subscribeStage(source, subscriber, onValue, undefined, undefined, { subscriber, seen: 0 });
 * ```
 * @return The subscription to `source` (already tied to `destination`).
 */
export function subscribeStage<T, S = unknown>(
  source: Observable<T>,
  destination: Subscriber<never>,
  onNext: (this: S, value: T) => void,
  onComplete?: (this: S) => void,
  onError?: (this: S, err: unknown) => void,
  target?: S,
): Subscription {
  // added to `destination` here, not in the constructor: a constructor this small is inlined
  // here by Node 24's optimizing compiler too (bench/RESULTS.md, "Session 13")
  const stage = new StageSubscriber(destination, onNext, onComplete, onError, target);
  if (destination instanceof LeanSubscriber) destination.adopt(stage);
  else destination.add(stage);
  return source.subscribe(stage);
}
