import { asyncScheduler, map, Observable, type Subscriber } from 'rxjs';

/**
 * One of each of RxJS's own short-lived objects that a turn makes: an Observable and a piped one,
 * the Subscriber an operator makes (`map`'s), the one `subscribe(fn)` makes with the observer
 * it wraps, and the action of a timer on the async scheduler (a tool's deadline), cancelled at once. A turn's own are all gone once it ends, and V8 forgets a class's object layout when a
 * full garbage collection finds no instance of it, with the optimized code that used it; these
 * stay (bench/RESULTS.md, "Session 7: after a full GC"). The source never emits and never ends.
 *
 * @example
 * ```ts
 * class Base { static readonly #kept = rxjsShapes(); } // made once, never read
 * ```
 */
export function rxjsShapes(): readonly object[] {
  let inner: Subscriber<unknown> | undefined;
  const source = new Observable<unknown>((subscriber) => {
    inner = subscriber;
  });
  const piped = source.pipe(map((value) => value));
  const outer = piped.subscribe(() => undefined);
  const action = asyncScheduler.schedule(() => undefined, 60_000);
  action.unsubscribe();
  return [source, piped, outer, inner!, action];
}
