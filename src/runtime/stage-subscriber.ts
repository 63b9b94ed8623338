import { type Observable, Subscriber, type Subscription } from 'rxjs';
import { LeanSubscriber } from './lean-subscriber.js';

/**
 * The Subscriber a stage of the loop subscribes to its source with: each value goes to
 * `onNext`, which decides what the stage's own `destination` receives; completion goes to
 * `onComplete` (default: `destination` completes); errors go to `onError` (default: `destination`
 * errors). What `onNext` or `onComplete` throws errors `destination`, as in RxJS's own operators. It is added to
 * `destination`, so unsubscribing the stage tears its source down. One object per
 * subscription, where `source.subscribe({ next, error, complete })` makes four (bench/RESULTS.md,
 * "Fewer Subscribers per iteration").
 *
 * @example
 * ```ts
 * new Observable<T>((subscriber) => subscribeStage(source, subscriber, (v) => subscriber.next(v)));
 * ```
 */
export class StageSubscriber<T> extends LeanSubscriber<T> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new StageSubscriber(new Subscriber<never>(), () => undefined);

  constructor(
    destination: Subscriber<never>,
    private readonly onNext: (value: T) => void,
    private readonly onComplete?: () => void,
    private readonly onError?: (err: unknown) => void,
  ) {
    super(); // `super(destination)` would add this one to it before LeanSubscriber's fields exist
    this.destination = destination;
    destination.add(this);
  }

  protected override _next(value: T): void {
    try {
      this.onNext(value);
    } catch (err) {
      this.destination.error(err);
    }
  }

  protected override _error(err: unknown): void {
    const onError = this.onError;
    if (!onError) return super._error(err);
    try {
      onError(err);
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
      onComplete();
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
 * @return The subscription to `source` (already tied to `destination`).
 */
export function subscribeStage<T>(
  source: Observable<T>,
  destination: Subscriber<never>,
  onNext: (value: T) => void,
  onComplete?: () => void,
  onError?: (err: unknown) => void,
): Subscription {
  return source.subscribe(new StageSubscriber(destination, onNext, onComplete, onError));
}
