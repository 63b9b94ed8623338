/** How far back (characters) the guard looks for an example phrase. */
const LOOKBACK = 160;

const PHRASES = ['for example', 'e.g.', 'for instance', 'an example', 'example:', 'example call', 'such as this'];

/**
 * True when the text right before a call (`lower` is lowercased; the call starts at `at`) plainly
 * introduces an example: "for example", "e.g.", "for instance", "an example", … within the same
 * paragraph, after the previous call (`floor`). Looks back a bounded distance, so the cost per
 * call is constant.
 *
 * @example
 * ```ts
 * isExample('for example: <tool_call>…', 13, 0); // true
 * ```
 */
export function isExample(lower: string, at: number, floor: number): boolean {
  let window = lower.slice(Math.max(floor, at - LOOKBACK), at);
  const paragraph = window.lastIndexOf('\n\n');
  if (paragraph !== -1) window = window.slice(paragraph + 2);
  return PHRASES.some((phrase) => window.includes(phrase));
}
