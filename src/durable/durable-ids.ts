import { DurableStoreError } from './durable-errors.js';

/** The longest id a turn store keeps (turn, request, conversation, owner, decider, tool): 256 characters. */
export const MAX_ID_LENGTH = 256;

/** A UTF-16 half of a pair standing alone: no UTF-8 encodes it, so a database would change it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a value cannot be an id in a turn store, or `undefined` when it can: an id is a string of
 * 1 to `MAX_ID_LENGTH` characters of well-formed text without a NUL (PostgreSQL's text refuses
 * `\u0000`; a megabyte key does not fit its index). The reason never repeats the value.
 *
 * @example
 * ```ts
 * idProblem('turn-1');        // undefined
 * idProblem('a\u0000b');      // 'contains a NUL character'
 * idProblem(42);              // 'is not a string (number)'
 * ```
 */
export function idProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `is not a string (${value === null ? 'null' : typeof value})`;
  if (value.length === 0) return 'is empty';
  if (value.length > MAX_ID_LENGTH) return `is longer than ${MAX_ID_LENGTH} characters (${value.length})`;
  if (value.includes('\u0000')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(value)) return 'is not well-formed text (a lone surrogate)';
  return undefined;
}

/** True when `value` can be an id in a turn store (`idProblem` finds none). */
export const isStoreId = (value: unknown): value is string => idProblem(value) === undefined;

/**
 * `value` as an id, or a `DurableStoreError` that says which id and what is wrong with it.
 *
 * @example
 * ```ts
 * checkId(input.conversationId, 'conversation id'); // throws DurableStoreError: The conversation id contains a NUL character.
 * ```
 */
export function checkId(value: unknown, what: string): string {
  const problem = idProblem(value);
  if (problem !== undefined) throw new DurableStoreError(`The ${what} ${problem}.`);
  return value as string;
}
