import { EmptyError, type Observable } from 'rxjs';
import { LeanSubscriber } from './lean-subscriber.js';

/**
 * RxJS's `lastValueFrom` for a turn's stream: the promise of the last value, rejected with
 * `EmptyError` when the stream completes without one and with the stream's error when it fails.
 * The stream is subscribed with one Subscriber of our own instead of RxJS's `SafeSubscriber`,
 * its observer object, three closures and a teardown array: for `agent.complete`, which an app
 * often calls once per message, that is ~0.5 KB less for every turn to keep alive while it
 * waits (bench/RESULTS.md, "Session 25").
 *
 * @example
 * ```ts
 * const done = await lastValue(runQuietLoop(resolved, { message: 'What is 2+2?' }));
 * ```
 * @param source A stream that completes.
 * @return Its last value.
 */
export function lastValue<T>(source: Observable<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    source.subscribe(new LastValueSubscriber(resolve, reject));
  });
}

const noop = (): void => undefined;

class LastValueSubscriber<T> extends LeanSubscriber<T> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new LastValueSubscriber(noop, noop);

  private value: T | undefined = undefined;
  private hasValue = false;

  constructor(
    private readonly resolve: (value: T) => void,
    private readonly reject: (err: unknown) => void,
  ) {
    super();
    this.lean(null);
  }

  protected override _next(value: T): void {
    this.value = value;
    this.hasValue = true;
  }

  protected override _error(err: unknown): void {
    try {
      this.reject(err);
    } finally {
      this.unsubscribe();
    }
  }

  protected override _complete(): void {
    try {
      if (this.hasValue) this.resolve(this.value as T);
      else this.reject(new EmptyError());
    } finally {
      this.unsubscribe();
    }
  }
}
