import { isObservable, Observable, Subscriber, type OperatorFunction } from 'rxjs';
import { isTurnEvent, type TurnEvent } from '../core/events.js';
import { LeanSubscriber } from './lean-subscriber.js';
import { Stage } from './stage.js';

/**
 * Joins two stages of the loop: turn events pass straight through, and each result of the first
 * stage (any value that is not an event) is replaced by what `project` returns for it — the
 * next stage's events and result. Like `mergeMap` for the results, with the events left as they
 * are (no Observable per event). Completes when the source and every projected stage completed.
 * A projection that returns the next stage's result itself (not an Observable) is emitted at
 * once, as `of(result)` would be, without a subscription.
 *
 * ```
 * source:  -e-e--r|          e: events, r: the stage's result
 * project:        -e-s|       (for r)
 * result:  -e-e---e-s|
 * ```
 * @example
 * ```ts
 * callProvider(it, buildRequest(it)).pipe(continueWith((response) => afterResponse(it, response)));
 * ```
 */
export function continueWith<T extends object, R>(
  project: (value: T) => Observable<TurnEvent | R> | R,
): OperatorFunction<TurnEvent | T, TurnEvent | R> {
  return (source) =>
    new Observable<TurnEvent | R>((subscriber) => {
      // tied to `subscriber`, as each projected stage is: unsubscribing tears the source, then every stage, down
      const stage = new ContinueSubscriber(subscriber, project);
      subscriber.add(stage);
      source.subscribe(stage);
    });
}

/**
 * The source's Subscriber, with the operator's state as fields rather than a closure each for
 * the source's values, its end, and each projected stage's values and end (what a waiting turn
 * keeps alive: bench/RESULTS.md, "Session 8").
 */
class ContinueSubscriber<T extends object, R> extends Stage<TurnEvent | T, TurnEvent | R> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new ContinueSubscriber(new Subscriber<never>(), () => undefined);

  /** Projected stages still running. */
  #active = 0;
  #sourceDone = false;

  constructor(
    out: Subscriber<TurnEvent | R>,
    private readonly project: (value: T) => Observable<TurnEvent | R> | R,
  ) {
    super(out);
  }

  protected onValue(value: TurnEvent | T): void {
    const out = this.out;
    if (isTurnEvent(value)) {
      out.next(value);
      return;
    }
    const next = this.project(value as T); // what it throws errors the result (Stage)
    if (!isObservable(next)) {
      out.next(next);
      return;
    }
    this.#active++;
    next.subscribe(new ProjectedSubscriber(this));
  }

  protected override onEnd(): void {
    this.#sourceDone = true;
    if (this.#active === 0) this.out.complete();
  }

  /** A projected stage completed. */
  projectedDone(): void {
    this.#active--;
    if (this.#sourceDone && this.#active === 0) this.out.complete();
  }
}

/** A projected stage's Subscriber: its values go out as they come; its end is counted. */
class ProjectedSubscriber<R> extends LeanSubscriber<TurnEvent | R> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new ProjectedSubscriber(new ContinueSubscriber(new Subscriber<never>(), () => undefined));

  constructor(private readonly parent: { readonly out: Subscriber<TurnEvent | R>; projectedDone(): void }) {
    super();
    this.destination = parent.out;
    parent.out.add(this);
  }

  protected override _complete(): void {
    try {
      this.parent.projectedDone();
    } catch (err) {
      this.parent.out.error(err);
    } finally {
      this.unsubscribe();
    }
  }
}
