import { asyncScheduler, type Subscription } from 'rxjs';

/**
 * One timer that fires when a stream has been quiet for `ms`: `touch()` on each value only
 * records the time, and when the timer fires early it waits out the rest, so a stream of 1,000
 * values arms one timer, not 1,000. Time is RxJS's async scheduler's, so marble tests run it in
 * virtual time. `idleDeadline` is the operator over it; `callProvider` keeps one per request.
 *
 * @example
 * ```ts
 * const idle = new IdleTimer(120_000, () => subscriber.error(new Error('silent for 2 minutes')));
 * idle.start();
 * source.subscribe({ next: (v) => (idle.touch(), subscriber.next(v)), complete: () => idle.stop() });
 * ```
 */
export class IdleTimer {
  #last = 0;
  #timer: Subscription | undefined;

  /**
   * @param ms How long the stream may be quiet.
   * @param onIdle Called once when it was quiet for `ms` (not after `stop()`).
   */
  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  /** Starts the wait: quiet from now. */
  start(): void {
    this.#last = asyncScheduler.now();
    this.#arm(this.ms);
  }

  /** A value arrived: quiet from now. */
  touch(): void {
    this.#last = asyncScheduler.now();
  }

  /** No more waiting; `onIdle` will not be called. */
  stop(): void {
    this.#timer?.unsubscribe();
    this.#timer = undefined;
  }

  #arm(delay: number): void {
    this.#timer = asyncScheduler.schedule(() => this.#fire(), delay);
  }

  #fire(): void {
    const quiet = asyncScheduler.now() - this.#last;
    if (quiet < this.ms) return this.#arm(this.ms - quiet);
    this.#timer = undefined;
    this.onIdle();
  }
}
