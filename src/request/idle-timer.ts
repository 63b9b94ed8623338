import { asyncScheduler, type Subscription } from 'rxjs';

/**
 * One timer that fires when a stream has been quiet for `ms`: `touch()` on each value only
 * records the time, and when the timer fires early it waits out the rest, so a stream of 1,000
 * values arms one timer, not 1,000. Time is RxJS's async scheduler's, so marble tests run it in
 * virtual time. `idleDeadline` is the operator over it; `callProvider` keeps one inside its own
 * Subscriber, without a stage of its own between the provider and the response (bench/RESULTS.md,
 * "Session 6").
 *
 * @example
 * ```ts
 * const idle = new IdleTimer(120_000, () => subscriber.error(new Error('silent for 2 minutes')));
 * idle.start();
 * source.subscribe({ next: (v) => (idle.touch(), subscriber.next(v)), complete: () => idle.stop() });
 * ```
 */
export class IdleTimer<T = unknown> {
  #last = 0;
  #timer: Subscription | undefined;

  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = IdleTimer.#exemplar();

  /** A timer as real ones are once started: `#last` holds a clock reading, a fraction. */
  static #exemplar(): IdleTimer {
    const timer = new IdleTimer(1, () => undefined);
    timer.#last = 0.5;
    return timer;
  }

  /**
   * @param ms How long the stream may be quiet.
   * @param onIdle Called once when it was quiet for `ms` (not after `stop()`), with `target` as `this`.
   */
  constructor(
    private readonly ms: number,
    private readonly onIdle: (this: T) => void,
    private readonly target?: T,
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
    this.#timer = asyncScheduler.schedule(IdleTimer.#fire, delay, this as IdleTimer);
  }

  /** The scheduler's work, shared by every timer (no closure per timer). */
  static #fire(this: unknown, timer?: IdleTimer): void {
    if (!timer) return;
    const quiet = asyncScheduler.now() - timer.#last;
    if (quiet < timer.ms) return timer.#arm(timer.ms - quiet);
    timer.#timer = undefined;
    timer.onIdle.call(timer.target);
  }
}
