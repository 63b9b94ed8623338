/**
 * An empty list, frozen and shared: what a configuration, snapshot or report holds where it has
 * nothing, instead of a new `[]` each time (an agent is often made per turn, and a turn keeps its
 * snapshots and agent alive while it waits: bench/RESULTS.md, "Choices in src/ made for speed").
 *
 * @example
 * ```ts
 * const observers = config.observers ?? NO_ITEMS;
 * ```
 */
export const NO_ITEMS: readonly never[] = Object.freeze([]);
