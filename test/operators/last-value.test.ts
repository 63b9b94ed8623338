import fc from 'fast-check';
import { EmptyError, lastValueFrom, Observable, of, Subject, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { lastValue } from '../../src/runtime/last-value.js';
import { StageObservable } from '../../src/runtime/stage-observable.js';
import { subscribeStage } from '../../src/runtime/stage-subscriber.js';

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };
const settle = (promise: Promise<unknown>): Promise<Settled> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/** What a scripted source does, step by step; anything after its first end is ignored by RxJS too. */
type Step = { kind: 'next'; value: number } | { kind: 'complete' } | { kind: 'error'; message: string } | { kind: 'throw'; message: string };

/** A source that plays `steps` when subscribed, records its teardowns, and ends either synchronously or a microtask later. */
function scripted(steps: readonly Step[], later: boolean, torn: string[]): Observable<number> {
  return new Observable<number>((subscriber) => {
    const play = () => {
      for (const step of steps) {
        if (step.kind === 'next') subscriber.next(step.value);
        else if (step.kind === 'complete') subscriber.complete();
        else if (step.kind === 'error') subscriber.error(new Error(step.message));
        else if (!later) throw new Error(step.message);
      }
    };
    if (later) queueMicrotask(play);
    else play();
    return () => torn.push('torn');
  });
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('next' as const), value: fc.integer() }),
  fc.record({ kind: fc.constant('complete' as const) }),
  fc.record({ kind: fc.constant('error' as const), message: fc.string() }),
  fc.record({ kind: fc.constant('throw' as const), message: fc.string() }),
);

const asComparable = (settled: Settled) =>
  settled.ok ? settled : { ok: false, error: settled.error instanceof Error ? `${settled.error.name}: ${settled.error.message}` : settled.error };

describe("lastValue settles as RxJS's lastValueFrom does", () => {
  it('for any run of values, completions, errors and thrown errors, synchronous or not: the same outcome and one teardown', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { maxLength: 6 }), fc.boolean(), async (steps, later) => {
        // a source that never ends settles neither promise: end every script
        const ended: Step[] = [...steps, { kind: 'complete' }];
        const tornOurs: string[] = [];
        const tornRxjs: string[] = [];
        const ours = await settle(lastValue(scripted(ended, later, tornOurs)));
        const rxjs = await settle(lastValueFrom(scripted(ended, later, tornRxjs)));
        expect(asComparable(ours)).toEqual(asComparable(rxjs));
        expect(tornOurs).toEqual(tornRxjs);
        expect(tornOurs.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('resolves with the last value, rejects an empty stream with EmptyError and a failed one with its error', async () => {
    await expect(lastValue(of(1, 2, 3))).resolves.toBe(3);
    await expect(lastValue(of())).rejects.toBeInstanceOf(EmptyError);
    const failure = new Error('boom');
    await expect(lastValue(throwError(() => failure))).rejects.toBe(failure);
  });

  it('keeps the last value when it is undefined, as lastValueFrom does', async () => {
    await expect(lastValue(of(1, undefined))).resolves.toBeUndefined();
  });

  it("ties a stage's Subscriber to its own, so the stage is torn down when the stream ends", async () => {
    const source = new Subject<number>();
    const torn: string[] = [];
    const stage = new StageObservable(
      (subscriber, from: Subject<number>) => {
        subscribeStage(from, subscriber, (value: number) => subscriber.next(value * 10), () => subscriber.complete());
        return () => torn.push('stage');
      },
      source,
      undefined,
      undefined,
    );
    const result = lastValue(stage);
    expect(source.observed).toBe(true);
    source.next(1);
    source.next(2);
    source.complete();
    await expect(result).resolves.toBe(20);
    expect(torn).toEqual(['stage']);
    expect(source.observed).toBe(false);
  });

  it('a failing teardown still settles the promise first', async () => {
    const source = new Observable<number>((subscriber) => {
      subscriber.next(7);
      queueMicrotask(() => {
        try {
          subscriber.complete();
        } catch {
          // the teardown's error reaches whoever completed the stream, as with RxJS's own Subscriber
        }
      });
      return () => {
        throw new Error('teardown failed');
      };
    });
    await expect(lastValue(source)).resolves.toBe(7);
  });
});
