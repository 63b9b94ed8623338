/**
 * Throws `err` from a timer, as RxJS reports an error nobody can take (its
 * `reportUnhandledError`): for what a promise's callback throws, which would otherwise be an
 * unhandled rejection of a promise nobody holds.
 *
 * @example
 * ```ts
 * promise.then((value) => {
 *   try {
 *     subscriber.next(value);
 *   } catch (err) {
 *     reportLater(err);
 *   }
 * });
 * ```
 */
export function reportLater(err: unknown): void {
  setTimeout(() => {
    throw err;
  });
}
