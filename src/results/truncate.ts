/**
 * Bounds a tool result: keeps the first 2/3 and the last 1/3 of `maxChars`, joined by a marker
 * that says how many characters were cut. Never splits a surrogate pair. 0 disables it.
 *
 * @example
 * ```ts
 * truncateToolResult('x'.repeat(100), 30);
 * // 'xxxxxxxxxxxxxxxxxxxx\n\n[... 70 characters truncated ...]\n\nxxxxxxxxxx'
 * ```
 */
export function truncateToolResult(output: string, maxChars: number): string {
  if (maxChars <= 0 || output.length <= maxChars) return output;
  let headEnd = Math.floor((maxChars * 2) / 3);
  let tailStart = output.length - (maxChars - headEnd);
  if (isHighSurrogate(output.charCodeAt(headEnd - 1))) headEnd -= 1;
  if (isLowSurrogate(output.charCodeAt(tailStart))) tailStart += 1;
  const cut = tailStart - headEnd;
  return `${output.slice(0, headEnd)}\n\n[... ${cut} characters truncated ...]\n\n${output.slice(tailStart)}`;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
