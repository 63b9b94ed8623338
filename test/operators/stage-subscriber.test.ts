import { Observable, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { subscribeStage } from '../../src/runtime/stage-subscriber.js';

/** A stage built on subscribeStage: doubles numbers; `onComplete` (when given) runs before its completion. */
function doubled(source: Observable<number>, onComplete?: (out: { next(v: number): void; complete(): void }) => void): Observable<number> {
  return new Observable<number>((subscriber) =>
    subscribeStage(
      source,
      subscriber,
      (v) => {
        if (v < 0) throw new Error(`negative: ${v}`);
        subscriber.next(v * 2);
      },
      onComplete && (() => onComplete(subscriber)),
    ),
  );
}

describe('StageSubscriber: the one Subscriber a stage of the loop subscribes with', () => {
  it('hands values to onNext; completion and errors reach the stage by default', () => {
    const source = new Subject<number>();
    const seen: unknown[] = [];
    doubled(source).subscribe({ next: (v) => seen.push(v), error: (e: Error) => seen.push(e.message), complete: () => seen.push('done') });
    source.next(1);
    source.next(2);
    source.complete();
    expect(seen).toEqual([2, 4, 'done']);
    const failing = new Subject<number>();
    doubled(failing).subscribe({ error: (e: Error) => seen.push(e.message) });
    failing.error(new Error('boom'));
    expect(seen.at(-1)).toBe('boom');
  });

  it('what onNext throws errors the stage and tears its source down', () => {
    const source = new Subject<number>();
    const seen: unknown[] = [];
    doubled(source).subscribe({ next: (v) => seen.push(v), error: (e: Error) => seen.push(e.message) });
    source.next(1);
    source.next(-1);
    source.next(3);
    expect(seen).toEqual([2, 'negative: -1']);
    expect(source.observed).toBe(false);
  });

  it('onComplete decides what the stage emits last', () => {
    const seen: unknown[] = [];
    doubled(new Observable<number>((s) => (s.next(5), s.complete())), (out) => {
      out.next(99);
      out.complete();
    }).subscribe({ next: (v) => seen.push(v), complete: () => seen.push('done') });
    expect(seen).toEqual([10, 99, 'done']);
  });

  it('unsubscribing the stage unsubscribes its source', () => {
    const source = new Subject<number>();
    const sub = doubled(source).subscribe();
    expect(source.observed).toBe(true);
    sub.unsubscribe();
    expect(source.observed).toBe(false);
  });
});
