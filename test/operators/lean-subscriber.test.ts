import { Observable, Subject, Subscriber, Subscription, UnsubscriptionError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { LeanSubscriber } from '../../src/runtime/lean-subscriber.js';
import { subscribeStage } from '../../src/runtime/stage-subscriber.js';

/** The smallest LeanSubscriber: values go to `seen`. */
class Probe<T> extends LeanSubscriber<T> {
  constructor(readonly seen: unknown[] = []) {
    super();
    this.lean(null);
  }

  protected override _next(value: T): void {
    this.seen.push(value);
  }
}

/** A RxJS Subscriber with one teardown, to count what RxJS itself keeps in its array. */
const rxjsSubscriber = () => new Subscriber<unknown>();

describe('LeanSubscriber keeps what Subscription.add promises, without an array per Subscriber', () => {
  it('runs its teardowns once, in the order they were added, when it ends', () => {
    const order: string[] = [];
    const probe = new Probe();
    probe.add(() => order.push('a'));
    probe.add(new Subscription(() => order.push('b'))); // RxJS's own, kept by RxJS
    probe.add({ unsubscribe: () => order.push('c') });
    probe.add(() => order.push('d'));
    probe.unsubscribe();
    probe.unsubscribe();
    expect(order).toEqual(['b', 'a', 'c', 'd']); // RxJS's own Subscriptions first, then ours in order
    expect(probe.closed).toBe(true);
  });

  it('a teardown added after it ended runs at once; nothing, itself and a closed child are ignored', () => {
    const probe = new Probe();
    const ran: string[] = [];
    probe.add(undefined);
    probe.add(probe);
    const closedChild = new Probe();
    closedChild.unsubscribe();
    probe.add(closedChild);
    probe.unsubscribe();
    probe.add(() => ran.push('late'));
    expect(ran).toEqual(['late']);
  });

  it('a child that ends first leaves its parent: the parent neither holds nor ends it again', () => {
    const parent = new Probe();
    const first = new Probe();
    const second = new Probe();
    const ended: string[] = [];
    first.add(() => ended.push('first'));
    second.add(() => ended.push('second'));
    parent.add(first);
    parent.add(first); // added twice: kept once
    parent.add(second);
    first.unsubscribe();
    expect(ended).toEqual(['first']);
    const later = new Probe();
    later.add(() => ended.push('later'));
    parent.add(later);
    parent.unsubscribe();
    expect(ended).toEqual(['first', 'second', 'later']);
    expect([first.closed, second.closed, later.closed]).toEqual([true, true, true]);
  });

  it('children that end first, anywhere in the list, leave it; the rest still end in the order they were added', () => {
    const parent = new Probe();
    const ended: string[] = [];
    const children = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => {
      const child = new Probe();
      child.add(() => ended.push(name));
      parent.add(child);
      return child;
    });
    const last = () => ended.push('last');
    const removed = () => ended.push('removed');
    parent.add(removed);
    parent.add(last);
    for (const at of [3, 1, 5]) children[at].unsubscribe(); // d (in the middle), b (first of the list), f
    parent.remove(removed); // a function, before the last
    expect(ended).toEqual(['d', 'b', 'f']);
    parent.unsubscribe();
    expect(ended).toEqual(['d', 'b', 'f', 'a', 'c', 'e', 'last']);
  });

  it('remove forgets a teardown, and a removed child no longer names that parent', () => {
    const parent = new Probe();
    const child = new Probe();
    const ran: string[] = [];
    const teardown = () => ran.push('teardown');
    parent.add(teardown);
    parent.add(child);
    parent.remove(teardown);
    parent.remove(child);
    parent.unsubscribe();
    expect(ran).toEqual([]);
    expect(child.closed).toBe(false);
    const other = new Probe();
    other.add(child); // free again: linked to its new parent
    other.unsubscribe();
    expect(child.closed).toBe(true);
  });

  it('a child added to a second parent ends with either of them', () => {
    const a = new Probe();
    const b = new Probe();
    const child = new Probe();
    a.add(child);
    b.add(child); // a second parent: RxJS links it
    b.unsubscribe();
    expect(child.closed).toBe(true);
    a.unsubscribe();
  });

  it('every teardown runs even when some throw; their errors come together as one UnsubscriptionError', () => {
    const probe = new Probe();
    const ran: string[] = [];
    probe.add(() => {
      throw new Error('one');
    });
    probe.add(() => ran.push('after one'));
    probe.add(
      new Subscription(() => {
        throw new UnsubscriptionError([new Error('two'), new Error('three')]);
      }),
    );
    probe.add(() => {
      throw new Error('four');
    });
    let caught: unknown;
    try {
      probe.unsubscribe();
    } catch (err) {
      caught = err;
    }
    expect(ran).toEqual(['after one']);
    expect(caught).toBeInstanceOf(UnsubscriptionError);
    expect((caught as UnsubscriptionError).errors.map((e) => (e as Error).message)).toEqual(['two', 'three', 'one', 'four']);
  });

  it('RxJS Subscribers that hold it still unsubscribe it, and let go of it when it ends first', () => {
    const holder = rxjsSubscriber();
    const probe = new Probe();
    holder.add(probe);
    probe.unsubscribe(); // leaves holder's list (RxJS's link)
    const other = new Probe();
    holder.add(other);
    holder.unsubscribe();
    expect(other.closed).toBe(true);
  });
});

describe("LeanSubscriber mirrors RxJS's Subscriber without running its code", () => {
  /** A Subscriber's own fields, in their order, with their values (RxJS's: not LeanSubscriber's nor Probe's). */
  const theirs = new Set(['first', 'more', 'parent', 'seen']);
  const fieldsOf = (s: Subscriber<unknown>) => Object.entries(s).filter(([key]) => !theirs.has(key));
  const observer = { next: () => undefined };

  /** RxJS's fields less `initialTeardown`, which ours leave unset: RxJS's is undefined, which an absent field reads as. */
  const rxjsFieldsOf = (s: Subscriber<unknown>) => {
    expect(s).toHaveProperty('initialTeardown', undefined);
    return fieldsOf(s).filter(([key]) => key !== 'initialTeardown');
  };

  it("a new one has the fields RxJS's constructors set, in their order and with their values (initialTeardown left unset)", () => {
    const ours = new Probe();
    (ours as unknown as { destination: unknown }).destination = observer; // as a StageSubscriber's
    expect(Object.hasOwn(ours, 'initialTeardown')).toBe(false);
    expect(fieldsOf(ours)).toEqual(rxjsFieldsOf(new Subscriber<unknown>(observer as never)));
  });

  it("one that ended has the fields RxJS's unsubscribe leaves, with or without teardowns of its own", () => {
    const rxjs = new Subscriber<unknown>(observer as never);
    rxjs.unsubscribe();
    const bare = new Probe();
    bare.unsubscribe();
    const withChild = new Probe();
    withChild.add(new Probe());
    withChild.add(() => undefined);
    withChild.unsubscribe();
    for (const ours of [bare, withChild]) expect(fieldsOf(ours)).toEqual(rxjsFieldsOf(rxjs));
  });

  it("a child linked by RxJS's add (a second parent) that ends first leaves both parents, and ends once", () => {
    const a = new Probe();
    const b = new Probe();
    const child = new Probe();
    let ended = 0;
    child.add(() => ended++);
    a.add(child);
    b.add(child); // through RxJS's add: b's finalizers and child's parentage
    child.unsubscribe();
    b.unsubscribe();
    a.unsubscribe();
    expect(ended).toBe(1);
    const rxjsHeld = (s: object) => (s as unknown as { _finalizers: unknown[] | null })._finalizers ?? [];
    expect(rxjsHeld(b)).not.toContain(child);
  });
});

describe('stages on LeanSubscribers tear down as RxJS operators do', () => {
  it('unsubscribing the end of a chain of stages tears every source down, innermost last', () => {
    const torn: string[] = [];
    const source = new Observable<number>(() => () => torn.push('source'));
    const stage = (name: string) => (input: Observable<number>) =>
      new Observable<number>((subscriber) => {
        subscribeStage(input, subscriber, (v) => subscriber.next(v));
        return () => torn.push(name);
      });
    const sub = stage('outer')(stage('inner')(source)).subscribe();
    sub.unsubscribe();
    expect(torn).toEqual(['source', 'inner', 'outer']);
  });

  it('a stage whose source completes drops it from its Subscriber at once', () => {
    const subject = new Subject<number>();
    const seen: number[] = [];
    const stage = new Observable<number>((subscriber) => {
      subscribeStage(subject, subscriber, (v) => subscriber.next(v), () => undefined);
    });
    const sub = stage.subscribe((v) => seen.push(v));
    subject.next(1);
    subject.complete();
    expect(subject.observed).toBe(false);
    expect(sub.closed).toBe(false); // the stage's onComplete did not complete it
    sub.unsubscribe();
    expect(seen).toEqual([1]);
  });
});
