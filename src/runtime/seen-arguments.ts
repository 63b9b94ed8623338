/** How many calls the list holds before it becomes a Map of Sets. */
const MAX_LISTED = 16;

/**
 * The dedup guard's record of one batch: which arguments (`argsKey`) each tool was called with.
 * A batch holds a few calls, so the record is one array of (tool name, arguments) pairs, searched
 * in order, until it holds `MAX_LISTED` calls; for so few, a Map of Sets costs more
 * (bench/RESULTS.md, "Choices in src/ made for speed"). `PrepContext.seen` shows the record as a
 * Map of Sets; from then on the record is that Map, which a step may change.
 *
 * @example
 * ```ts
 * const seen = new SeenArguments();
 * seen.add('read', '{"path":"a"}'); // true
 * seen.add('read', '{"path":"a"}'); // false: a duplicate
 * ```
 */
export class SeenArguments {
  /** Tool name and arguments, in turn, of each call recorded. */
  private pairs: string[] | undefined = undefined;
  private map: Map<string, Set<string>> | undefined = undefined;

  /** Records a call of `name` with `key` (its `argsKey`); false when this batch has had that call already. */
  add(name: string, key: string): boolean {
    if (this.map !== undefined) return addTo(this.map, name, key);
    const pairs = (this.pairs ??= []);
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i + 1] === key && pairs[i] === name) return false;
    if (pairs.length === 2 * MAX_LISTED) return addTo(this.asMap(), name, key);
    pairs.push(name, key);
    return true;
  }

  /** The record as a Map from tool name to the arguments seen (the record from then on). */
  asMap(): Map<string, Set<string>> {
    if (this.map === undefined) {
      const map = new Map<string, Set<string>>();
      const pairs = this.pairs ?? [];
      for (let i = 0; i < pairs.length; i += 2) addTo(map, pairs[i], pairs[i + 1]);
      this.map = map;
      this.pairs = undefined;
    }
    return this.map;
  }
}

/** Adds `key` to `name`'s set; false when it was there. */
export function addTo(map: Map<string, Set<string>>, name: string, key: string): boolean {
  let keys = map.get(name);
  if (keys === undefined) map.set(name, (keys = new Set()));
  const size = keys.size;
  keys.add(key); // one hash lookup: the set did not grow when the key was there already
  return keys.size !== size;
}
