import type { Observable, Subscriber, TeardownLogic } from 'rxjs';
import { StageObservable } from './stage-observable.js';

/**
 * A turn's cancellation (`turnCancellation`): emits once and completes when `signal` aborts, at
 * once when it already has, as `fromAbortSignal(signal).pipe(share())` does, with one 'abort'
 * listener on the signal while anything waits and none after. Its subscribers wait in an array:
 * no `share` Subject or refcount Subscribers between them and the signal (bench/RESULTS.md,
 * "Session 20").
 *
 * ```
 * signal:   ----abort
 * result:   ----(x|)        to every subscriber, as a Subject would; a late one: (x|) at once
 * ```
 * @example
 * ```ts
 * source.pipe(takeUntil(signalCancellation(request.signal)));
 * ```
 */
export function signalCancellation(signal: AbortSignal): Observable<void> {
  return new StageObservable(wait, new AbortWaiters(signal), undefined, undefined);
}

function wait(subscriber: Subscriber<void>, waiters: AbortWaiters): TeardownLogic {
  return waiters.add(subscriber);
}

/** The subscribers waiting for one signal's abort; the object itself is the signal's listener. */
class AbortWaiters {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new AbortWaiters(new AbortController().signal);

  readonly #signal: AbortSignal;
  /** The listener is on the signal while this is not empty. */
  #waiting: Subscriber<void>[] = [];

  constructor(signal: AbortSignal) {
    this.#signal = signal;
  }

  add(subscriber: Subscriber<void>): TeardownLogic {
    if (this.#signal.aborted) {
      subscriber.next();
      subscriber.complete();
      return undefined;
    }
    if (this.#waiting.length === 0) this.#signal.addEventListener('abort', this);
    this.#waiting.push(subscriber);
    return () => this.#leave(subscriber);
  }

  /** The signal's 'abort' event: every waiting subscriber is told, and the listener goes. */
  handleEvent(): void {
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    this.#signal.removeEventListener('abort', this);
    // as a Subject tells them: every value first, then every completion
    for (const subscriber of waiting) subscriber.next();
    for (const subscriber of waiting) subscriber.complete();
  }

  #leave(subscriber: Subscriber<void>): void {
    const waiting = this.#waiting;
    const at = waiting.indexOf(subscriber);
    if (at < 0) return; // told already
    // the others keep their order: they are told in the order they came, as by a Subject
    for (let i = at + 1; i < waiting.length; i++) waiting[i - 1] = waiting[i];
    waiting.pop();
    if (waiting.length === 0) this.#signal.removeEventListener('abort', this);
  }
}
