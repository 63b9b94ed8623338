import { truncateToolResult } from './truncate.js';

/**
 * Bounds a value for a rendering surface (events, observers, logs) the way results are bounded
 * (`truncateToolResult`): every string longer than `maxChars` is cut (the shape stays); when the
 * value's text still exceeds twice `maxChars` (many mid-sized strings), the whole value becomes
 * its JSON text, cut to `maxChars`.
 * Returns the value itself when nothing was cut, a copy otherwise; 0 disables it. Use it on a
 * scrubbed copy, never on what a tool receives.
 *
 * @example
 * ```ts
 * boundValue({ path: 'a.txt', content: 'x'.repeat(200_000) }, 50_000).content.length; // ~50 000
 * ```
 */
export function boundValue<T>(value: T, maxChars: number): T {
  if (maxChars <= 0) return value;
  const budget = { chars: 0 };
  const bounded = walk(value, maxChars, budget, 0);
  if (budget.chars <= 2 * maxChars) return bounded as T;
  return truncateToolResult(json(bounded), maxChars) as T;
}

const MAX_DEPTH = 12;

function walk(value: unknown, max: number, budget: { chars: number }, depth: number): unknown {
  if (typeof value === 'string') {
    const out = truncateToolResult(value, max);
    budget.chars += out.length;
    return out;
  }
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = walk(value[i], max, budget, depth + 1);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    budget.chars += value.length;
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const k in value) {
    budget.chars += k.length + 1;
    const item = (value as Record<string, unknown>)[k];
    const out = walk(item, max, budget, depth + 1);
    if (out !== item) (copy ??= { ...(value as Record<string, unknown>) })[k] = out;
  }
  return copy ?? value;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable value]';
  }
}
