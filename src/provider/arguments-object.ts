/**
 * A call's arguments (the JSON text history keeps) as the object a provider that takes objects
 * sends back (Anthropic's `tool_use.input`, an AI SDK tool-call part's `input`): `{}` for text
 * that is not a JSON object, as the loop ran such a call with `{}`.
 *
 * @example
 * ```ts
 * argumentsObject('{"city":"Oslo"}'); // { city: 'Oslo' }
 * argumentsObject('[1]');             // {}
 * ```
 */
export function argumentsObject(text: string): Record<string, unknown> {
  if (text.trim().length === 0) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
