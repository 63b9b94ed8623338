import type { ProviderToolCall } from '../provider/provider.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../provider/text-protocol/json-extent.js';
import type { ParsedCall } from '../core/calls.js';
import type { ModelResponse } from './call-provider.js';
import type { IterationContext } from '../context/resolved-execution.js';

/** The calls of a response, and whether text that looked like the protocol failed to parse. */
export interface ParsedResponse {
  readonly calls: ParsedCall[];
  /** Calls came from model text (text protocol), not from structured tool calls. */
  readonly fromText: boolean;
  readonly malformed: boolean;
}

/**
 * Normalizes a response into parsed calls with slot indices. Native calls win; text calls are
 * parsed only when there are none, tools are offered, and strict parsing is off.
 *
 * @example
 * ```ts
 * const { calls } = parseResponse(it, response);
 * ```
 */
export function parseResponse(it: IterationContext, response: ModelResponse): ParsedResponse {
  const { resolved, turn } = it;
  if (response.toolCalls.length > 0) {
    return { calls: toParsedCalls(response.toolCalls, resolved.ids), fromText: false, malformed: false };
  }
  const protocol = resolved.provider.textProtocol;
  if (!protocol || protocol.strict || resolved.knobs.strictToolParsing || turn.tools.specs.length === 0 || response.text.length === 0) {
    return { calls: [], fromText: false, malformed: false };
  }
  const { calls, malformed } = protocol.parse(response.text, turn.tools.names);
  return {
    calls: toParsedCalls(calls, resolved.ids),
    fromText: calls.length > 0,
    malformed: calls.length === 0 && malformed,
  };
}

/**
 * A batch of provider calls as parsed calls with slot indices. An id the model repeats within
 * the batch is replaced by a generated one for the later slots, so every tool message of the
 * history answers exactly one call.
 */
export function toParsedCalls(calls: readonly ProviderToolCall[], ids: () => string): ParsedCall[] {
  const parsed = calls.map((call, slot) => toParsedCall(call, slot, ids));
  if (parsed.length < 2) return parsed;
  if (parsed.length <= 16) {
    // a small batch compares ids pairwise: no Set
    for (let i = 1; i < parsed.length; i++) {
      const call = parsed[i];
      for (let j = 0; j < i; j++) {
        if (parsed[j].id !== call.id) continue;
        parsed[i] = new ParsedToolCall(call.slot, ids(), call.name, call.args, call.rawArguments, call.argsError);
        break;
      }
    }
    return parsed;
  }
  const seen = new Set<string>();
  for (let i = 0; i < parsed.length; i++) {
    const call = parsed[i];
    const size = seen.size;
    seen.add(call.id); // one hash lookup: the set did not grow when the id was there already
    if (seen.size > size) continue;
    parsed[i] = new ParsedToolCall(call.slot, ids(), call.name, call.args, call.rawArguments, call.argsError);
    seen.add(parsed[i].id);
  }
  return parsed;
}

/**
 * One provider call as a parsed call. Arguments that are not a JSON object become `{}` and
 * keep the problem, so validation can tell the model what went wrong.
 */
export function toParsedCall(input: ProviderToolCall, slot: number, ids: () => string): ParsedCall {
  // A custom provider may send a call without a (string) name: it becomes an unknown tool.
  const call = typeof input.name === 'string' ? input : { ...input, name: String(input.name ?? '') };
  const id = typeof call.id === 'string' && call.id.length > 0 ? call.id : ids();
  const raw = call.arguments;
  if (typeof raw !== 'string') {
    const args = isPlainObject(raw) ? raw : {};
    let rawArguments: string;
    try {
      rawArguments = JSON.stringify(args);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return new ParsedToolCall(slot, id, call.name, {}, '{}', `the arguments cannot be written as JSON (${why})`);
    }
    return new ParsedToolCall(slot, id, call.name, args, rawArguments);
  }
  if (mayBeBlank(raw) && raw.trim() === '') return new ParsedToolCall(slot, id, call.name, {}, '{}');
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isPlainObject(parsed)) {
      // as in text calls: deeper nesting is refused, so nothing downstream recurses without bound
      // (told from the parsed value: a long string in the arguments is not scanned again)
      if (raw.length > 2 * MAX_JSON_DEPTH && nestedDeeperThan(parsed, MAX_JSON_DEPTH)) {
        return new ParsedToolCall(slot, id, call.name, {}, raw, `the arguments are nested deeper than ${MAX_JSON_DEPTH} levels`);
      }
      return new ParsedToolCall(slot, id, call.name, parsed, raw);
    }
    return new ParsedToolCall(slot, id, call.name, {}, raw, 'the arguments must be a JSON object');
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return new ParsedToolCall(slot, id, call.name, {}, raw, `the arguments are not valid JSON (${why})`);
  }
}

/** A parsed call; a class, so all have the same fields (bench/RESULTS.md, "Choices in src/ made for speed"). */
class ParsedToolCall implements ParsedCall {
  constructor(
    readonly slot: number,
    readonly id: string,
    readonly name: string,
    readonly args: Record<string, unknown>,
    readonly rawArguments: string,
    readonly argsError?: string,
  ) {}
}

/**
 * False when `text` starts with a character `trim` keeps (what arguments start with: `{`), so
 * only text that may be blank is trimmed: a builtin call per call otherwise. Every character
 * `trim` removes is at or below U+0020 or at or above U+00A0.
 */
function mayBeBlank(text: string): boolean {
  const first = text.charCodeAt(0); // NaN for ''
  return !(first > 0x20 && first < 0xa0);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
