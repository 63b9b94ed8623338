import { boundValue } from './bound-value.js';
import { keyKeptAsIs, scrubValue, textKeptAsIs } from './scrub-value.js';

/**
 * A value as a rendering surface shows it: `boundValue(scrubValue(value), maxChars)`. The usual
 * tool arguments — a flat object of numbers, booleans, `null` and strings — are most often what
 * both leave as they are, and come back after one look instead of two walks: the look asks what
 * the walks would, key by key (a token-shaped key, a secret-like key's value, a string
 * `scrubCredentials` changes, one longer than `maxChars`, more than twice `maxChars` in all), and
 * leaves anything the walks would change, nested values and class instances to them
 * (bench/RESULTS.md, "Choices in src/ made for speed").
 *
 * @example
 * ```ts
 * shownValue({ path: 'a.txt', n: 2 }, 50_000);           // the same object
 * shownValue({ password: 'correct horse' }, 50_000);    // { password: '[REDACTED]' }
 * ```
 */
export function shownValue<T>(value: T, maxChars: number): T {
  return isShownAsIs(value, maxChars) ? value : boundValue(scrubValue(value), maxChars);
}

function isShownAsIs(value: unknown, maxChars: number): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  // what boundValue counts: each key and one more, each string's length
  let chars = 0;
  for (const key in value) {
    if (!keyKeptAsIs(key)) return false;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'string') {
      if ((maxChars > 0 && item.length > maxChars) || !textKeptAsIs(key, item)) return false;
      chars += item.length;
    } else if (item !== null && item !== undefined && typeof item !== 'number' && typeof item !== 'boolean') {
      return false; // nested, or what the walks might render otherwise
    }
    chars += key.length + 1;
  }
  return maxChars <= 0 || chars <= 2 * maxChars;
}
