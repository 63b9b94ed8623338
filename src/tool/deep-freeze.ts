/** Objects `deepFreeze` froze with everything they reach. */
const deeplyFrozen = new WeakSet<object>();

/**
 * Freezes an object graph in place (used once per tool schema, never per request), objects
 * frozen before included: afterwards nothing it reaches can change (`isDeeplyFrozen`).
 *
 * @example
 * ```ts
 * const schema = deepFreeze({ type: 'object', properties: { path: { type: 'string' } } });
 * isDeeplyFrozen(schema); // true
 * ```
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !deeplyFrozen.has(value)) {
    Object.freeze(value);
    deeplyFrozen.add(value); // before the children: a cycle ends here
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * True for an object `deepFreeze` froze: neither it nor anything it reaches can change.
 *
 * @example
 * ```ts
 * isDeeplyFrozen(Object.freeze({ a: {} })); // false: its `a` can change
 * ```
 */
export const isDeeplyFrozen = (value: object): boolean => deeplyFrozen.has(value);
