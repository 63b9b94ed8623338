import { type Observer, Subscriber, Subscription, type TeardownLogic, UnsubscriptionError } from 'rxjs';
import { rxjsShapes } from './rxjs-shapes.js';
import { withoutConstructor } from './without-constructor.js';

/**
 * A Subscriber that keeps what is added to it (a source's Subscriber, a teardown) in a field, and
 * in an array only from the second on, and runs them in the order they came when it ends: what
 * `Subscription.add` and `unsubscribe` promise. RxJS's own keep every Subscriber's teardowns in
 * an array, which V8 sizes for 16 on the first `push`, and walk it on unsubscribe with an
 * iterator and a result object per teardown (RxJS's CommonJS build, the one Node loads): ~350
 * bytes per subscription that a turn allocates some 70 times (bench/RESULTS.md, "Session 6").
 * One LeanSubscriber added to another is linked both ways, as RxJS links its own (the child
 * leaves its parent's list when it ends first); RxJS's Subscribers, and a second parent, are
 * left to RxJS's own `add`. `StageSubscriber` and `mergeMapMany`'s inner Subscriber extend it.
 * It sets the fields RxJS's constructors set without running them (`withoutConstructor`), and
 * while nothing went through RxJS's own `add`, it ends as RxJS's `unsubscribe` would without
 * calling it (test/operators/lean-subscriber.test.ts compares both with RxJS's own).
 *
 * @example
 * ```ts
 * class Inner<T> extends LeanSubscriber<T> {
 *   constructor() { super(); this.lean(null); }
 *   protected override _next(value: T): void { console.log(value); }
 * }
 * ```
 */
export abstract class LeanSubscriber<T> extends withoutConstructor(Subscriber)<T> {
  /** Keeps RxJS's own object layouts alive across a full GC (see rxjsShapes). */
  static readonly #rxjs = rxjsShapes();
  // Set by `lean`, not by field initializers or a constructor: a class without either is one
  // V8 skips when a subclass is constructed (bench/RESULTS.md, "Session 11").
  declare private first: Teardown | undefined;
  declare private more: Teardown[] | undefined;
  /** The LeanSubscriber this one was added to (a StageSubscriber's destination): told when this one ends first. */
  declare private parent: LeanSubscriber<never> | undefined;

  /**
   * Sets what RxJS's Subscription and Subscriber constructors set, without running them (see
   * withoutConstructor), and this class's own fields; a subclass's constructor calls it first.
   * `destination` is not told (the subclass adds itself to it).
   *
   * @param destination Where the values go; `null` for a subclass that handles all three itself.
   */
  protected lean(destination: Subscriber<never> | null): void {
    const fields = rxjsFields(this);
    // not `initialTeardown`, which RxJS's constructor sets to undefined and reads only in its own
    // `unsubscribe`: absent, it reads as undefined there too, and each Subscriber is 8 bytes smaller
    fields.closed = false;
    fields._parentage = null;
    fields._finalizers = null;
    fields.isStopped = false;
    fields.destination = destination;
    this.first = undefined;
    this.more = undefined;
    this.parent = undefined;
  }

  /**
   * `add` for a LeanSubscriber just made, that nothing else holds yet (a stage's own, before it
   * subscribes): the same links `add` makes, without the cases such a child cannot be in. Small
   * enough to be inlined where `add`, with RxJS's beside it, is not (bench/RESULTS.md, "Session 13").
   */
  adopt(child: LeanSubscriber<never>): void {
    if (this.closed) return child.unsubscribe();
    child.parent = this;
    this.keep(child);
  }

  /** `Subscription.add`: a teardown for when this one ends (at once if it has). */
  override add(teardown: TeardownLogic): void {
    if (!teardown || teardown === this) return;
    if (this.closed) return runTeardown(teardown);
    if (teardown instanceof LeanSubscriber) {
      if (teardown.closed || teardown.parent === this) return;
      if (teardown.parent !== undefined) return super.add(teardown); // a second parent: RxJS links that one
      teardown.parent = this;
    } else if (teardown instanceof Subscription) {
      return super.add(teardown); // RxJS's own Subscribers: RxJS links them both ways
    }
    this.keep(teardown);
  }

  /** Keeps a teardown to run when this one ends: in `first`, then in `more`. */
  private keep(teardown: Teardown): void {
    if (this.first === undefined && this.more === undefined) this.first = teardown;
    else if (this.more === undefined) this.more = [teardown]; // room for one: a push onto [] reserves 17
    else this.more.push(teardown);
  }

  /** `Subscription.remove`: forgets a teardown (one that ended first). */
  override remove(teardown: Teardown): void {
    if (teardown instanceof LeanSubscriber && teardown.parent === this) teardown.parent = undefined;
    this.forget(teardown);
  }

  /** Drops a teardown from `first` or `more`, and from RxJS's own list if anything went through it. */
  private forget(teardown: Teardown): void {
    if (this.first === teardown) this.first = undefined;
    else if (this.more !== undefined) {
      const more = this.more;
      const at = more.indexOf(teardown);
      if (at >= 0) {
        // moved down and popped: `splice` is a builtin call of ~350 instructions (bench/RESULTS.md, "Session 12")
        for (let i = at + 1; i < more.length; i++) more[i - 1] = more[i];
        more.pop();
      }
    }
    // RxJS's `remove` undoes what its `add` did: nothing, unless something went through it
    if (rxjsFields(this)._finalizers !== null) super.remove(teardown);
  }

  /** `Subscriber.unsubscribe`: leaves its parent, then runs the teardowns in the order they came (RxJS's first). */
  override unsubscribe(): void {
    if (this.closed) return;
    const parent = this.parent;
    if (parent !== undefined) {
      // `parent.remove(this)` less the checks it needs for other teardowns: this one is a LeanSubscriber linked to `parent`
      this.parent = undefined;
      parent.forget(this);
    }
    let errors: unknown[] | undefined;
    const fields = rxjsFields(this);
    if (fields._parentage === null && fields._finalizers === null) {
      // what RxJS's `unsubscribe` does when nothing went through its `add`
      fields.isStopped = true;
      fields.closed = true;
      fields.destination = null;
    } else {
      try {
        super.unsubscribe();
      } catch (err) {
        errors = unsubscriptionErrors(errors, err);
      }
    }
    const first = this.first;
    const more = this.more;
    this.first = this.more = undefined;
    if (first !== undefined) errors = runCollecting(first, errors);
    if (more !== undefined) for (let i = 0; i < more.length; i++) errors = runCollecting(more[i], errors);
    if (errors !== undefined) throw new UnsubscriptionError(errors);
  }
}

/** The fields RxJS 7's Subscription and Subscriber constructors set, in their order (TypeScript hides most of them), less `initialTeardown`. */
interface SubscriberFields {
  closed: boolean;
  _parentage: unknown;
  _finalizers: unknown[] | null;
  isStopped: boolean;
  destination: Subscriber<never> | Observer<never> | null;
}

/** A Subscriber's RxJS fields, as the type they have at run time. */
const rxjsFields = (subscriber: Subscriber<never>): SubscriberFields => subscriber as unknown as SubscriberFields;

/** What `add` takes, less nothing. */
export type Teardown = Exclude<TeardownLogic, void>;

function runTeardown(teardown: Teardown): void {
  if (typeof teardown === 'function') teardown();
  else teardown.unsubscribe();
}

/** Runs a teardown; what it throws joins the errors so far. */
function runCollecting(teardown: Teardown, errors: unknown[] | undefined): unknown[] | undefined {
  try {
    runTeardown(teardown);
  } catch (err) {
    return unsubscriptionErrors(errors, err);
  }
  return errors;
}

/** The errors so far, with `err` (an UnsubscriptionError's own errors, flattened, as RxJS does). */
function unsubscriptionErrors(errors: unknown[] | undefined, err: unknown): unknown[] {
  const all = errors ?? [];
  if (err instanceof UnsubscriptionError) all.push(...err.errors);
  else all.push(err);
  return all;
}
