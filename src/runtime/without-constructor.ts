/**
 * A class to extend in place of `base`: its instances are `base`'s (same prototype chain, so
 * `instanceof base` holds and every method is inherited, statics included), but its constructor
 * runs nothing of `base`'s. A subclass sets the fields `base`'s constructor would have set.
 * RxJS 7's CommonJS build (the one Node loads) compiles its classes to ES5 functions, and a
 * class that extends one is constructed through V8's generic construct stub, once per level:
 * for the loop's Subscribers and Observables, a dozen per iteration (bench/RESULTS.md,
 * "Session 11").
 *
 * @example
 * ```ts
 * // Observable's constructor sets nothing when given no function: nothing to set instead
 * class Stage<T> extends withoutConstructor(Observable)<T> {
 *   protected _subscribe(subscriber: Subscriber<T>): TeardownLogic {
 *     subscriber.complete();
 *   }
 * }
 * new Stage<number>() instanceof Observable; // true
 * ```
 * @param base The class whose instances the subclass makes.
 * @return A class with `base`'s prototype chain and an empty constructor.
 */
export function withoutConstructor<C extends abstract new (...args: never[]) => object>(base: C): C {
  const shell = class {};
  Object.setPrototypeOf(shell.prototype, base.prototype);
  Object.setPrototypeOf(shell, base);
  return shell as unknown as C;
}
