/**
 * Compiles glob patterns into one name predicate, once: `*` matches any run of characters,
 * `?` exactly one; everything else is literal and case-sensitive.
 *
 * @example
 * ```ts
 * const matches = globMatcher(['github__*', 'fs__read_?']);
 * matches('github__search'); // true
 * ```
 */
export function globMatcher(patterns: readonly string[]): (name: string) => boolean {
  const exact = new Set<string>();
  const sources: string[] = [];
  for (const pattern of patterns) {
    if (!/[*?]/.test(pattern)) {
      exact.add(pattern);
      continue;
    }
    sources.push(pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.'));
  }
  const re = sources.length > 0 ? new RegExp(`^(?:${sources.join('|')})$`, 's') : undefined;
  if (!re) return (name) => exact.has(name);
  return (name) => exact.has(name) || re.test(name);
}
