import { EMPTY, from, Observable, Subscriber, type MonoTypeOperatorFunction, type ObservableInput } from 'rxjs';
import { Stage } from '../runtime/stage.js';

/**
 * `expand` for a turn's stream, where most values are events that expand to nothing. Same
 * contract as RxJS's `expand(project)` (no concurrency limit): every value of the source and of
 * each projection is emitted, then projected with its index, and the projection is subscribed;
 * the result completes when the source and every projection completed; any error errors it;
 * unsubscribing tears every projection down. The difference: a projection that is the `EMPTY`
 * constant is not subscribed (subscribing to it only completes), so an event costs one call of
 * `project` instead of an inner subscription. marbles/expand-steps.marble.test.ts runs the same
 * specs against both.
 *
 * ```
 * source:  -a-------|          project: a → -b|, b → EMPTY
 * result:  -a-b-----|
 * ```
 * @example
 * ```ts
 * iterate(turn, snapshot).pipe(expandSteps((v) => (isIterationStep(v) && v.kind === 'next' ? iterate(turn, v.snapshot) : EMPTY)));
 * ```
 * @param project Maps each value (and its index) to the values it expands to.
 * @return Every value, and every value its projections produce, recursively.
 */
export function expandSteps<T>(project: (value: T, index: number) => ObservableInput<T>): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const stage = new ExpandSubscriber(subscriber, project);
      subscriber.add(stage);
      source.subscribe(stage);
    });
}

/**
 * The source's Subscriber, with the operator's state as fields rather than closures (what a
 * waiting turn keeps alive: bench/RESULTS.md, "Session 8"); each projection's values come back
 * through `expand`.
 */
class ExpandSubscriber<T> extends Stage<T, T> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new ExpandSubscriber<never>(new Subscriber<never>(), () => EMPTY);

  /** Projections still running. */
  #active = 0;
  #index = 0;
  #sourceDone = false;

  constructor(
    out: Subscriber<T>,
    private readonly project: (value: T, index: number) => ObservableInput<T>,
  ) {
    super(out);
  }

  protected onValue(value: T): void {
    this.expand(value);
  }

  protected override onEnd(): void {
    this.#sourceDone = true;
    this.#checkComplete();
  }

  /** A value of the source or of a projection: emitted, then projected. */
  expand(value: T): void {
    const out = this.out;
    out.next(value);
    if (out.closed) return;
    let next: ObservableInput<T>;
    try {
      next = this.project(value, this.#index++);
    } catch (err) {
      out.error(err);
      return;
    }
    if (next === EMPTY) return;
    this.#active++;
    // tied to `out` before it runs, so a teardown that comes meanwhile closes it at once
    const projection = new ProjectionSubscriber(this);
    out.add(projection);
    from(next).subscribe(projection);
  }

  /** A projection completed. */
  projectionDone(): void {
    this.#active--;
    this.#checkComplete();
  }

  #checkComplete(): void {
    if (this.#sourceDone && this.#active === 0) this.out.complete();
  }
}

/** A projection's Subscriber: its values are expanded in turn; its end is counted. */
class ProjectionSubscriber<T> extends Stage<T, T> {
  /** Keeps this class's object layout alive across a full GC (bench/RESULTS.md, "Session 7: after a full GC"). */
  static readonly #shape = new ProjectionSubscriber(new ExpandSubscriber<never>(new Subscriber<never>(), () => EMPTY));

  constructor(private readonly expander: ExpandSubscriber<T>) {
    super(expander.out);
  }

  protected onValue(value: T): void {
    this.expander.expand(value);
  }

  protected override onEnd(): void {
    this.expander.projectionDone();
  }
}
