import { isThrownError, readThrown, thrownMessage } from '../core/read-thrown.js';
import { SECRET_KEY_SOURCE } from './scrub-rules.js';
import { REDACTED, scrubCredentials } from './scrub.js';

/**
 * Object keys whose string values are secrets whatever they look like: the keys of the keyed
 * text rules, in any case (`Authorization`, `API_KEY`, `db_pass`, `smtpPwd`, not `compass` nor
 * `max_tokens`).
 */
const SECRET_KEY = new RegExp(SECRET_KEY_SOURCE);
const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** Keys shorter than this are never renamed: the shortest token shape is longer (`sk-` and 16). */
const KEY_MIN_LENGTH = 8;

/** A key's facts, as bits: a secret-like key, and one `scrubCredentials` changes (token-shaped). */
const SECRET = 1;
const TOKEN_SHAPED = 2;
/**
 * The facts of keys seen, remembered: keys repeat (a tool's parameters, a log line's fields) and
 * each fact costs a regular expression or three. Bounded: short keys only, and no more once it
 * holds `MAX_KNOWN` (keys a model makes up could be endless; past the bound they are checked
 * each time, as before).
 */
const known = new Map<string, number>();
const MAX_KNOWN = 1024;
const MAX_KNOWN_LENGTH = 64;

function factsOf(key: string): number {
  let facts = known.get(key);
  if (facts === undefined) {
    facts = (isSecretKey(key) ? SECRET : 0) | (key.length >= KEY_MIN_LENGTH && scrubCredentials(key) !== key ? TOKEN_SHAPED : 0);
    if (known.size < MAX_KNOWN && key.length <= MAX_KNOWN_LENGTH) known.set(key, facts);
  }
  return facts;
}

/**
 * True when `scrubValue` leaves `key` of a plain object as it is: shorter than 8 characters, or
 * not shaped like a token.
 *
 * @example
 * ```ts
 * keyKeptAsIs('path');                        // true
 * keyKeptAsIs('sk-abcdefghijklmnopqrstuvwx'); // false: renamed '[REDACTED]'
 * ```
 */
export const keyKeptAsIs = (key: string): boolean => key.length < KEY_MIN_LENGTH || (factsOf(key) & TOKEN_SHAPED) === 0;

/**
 * True when `scrubValue` leaves the string `text` under `key` of a plain object as it is:
 * neither a secret-like key's value (other than empty or `[REDACTED]`) nor anything
 * `scrubCredentials` changes.
 *
 * @example
 * ```ts
 * textKeptAsIs('path', 'src/index.ts'); // true
 * textKeptAsIs('PASS', 'x');            // false: '[REDACTED]'
 * ```
 */
export const textKeptAsIs = (key: string, text: string): boolean => !isSecretValue(key, text) && scrubCredentials(text) === text;

/** A secret-like key's string value, of any length: `scrubValue` redacts it whole (idempotent: `[REDACTED]` is kept). */
const isSecretValue = (key: string, text: string): boolean => text.length > 0 && text !== REDACTED && (factsOf(key) & SECRET) !== 0;

const MAX_DEPTH = 12;

/**
 * `scrubCredentials` for structured values (log objects, tool arguments): strings are scrubbed,
 * and so are object keys shaped like a token (`{ "sk-…": 1 }` → `{ "[REDACTED]": 1 }`); string
 * values of secret-like keys (any case, any length) become `[REDACTED]` whole; errors become
 * `{ type, message, code?, stack }` with scrubbed text — still of the error's class, so pino's
 * error serializer reports the class (`err.type: 'ProviderError'`, not `'Object'`). Returns the value itself when nothing
 * needed redacting, a scrubbed copy otherwise; the input is never modified.
 *
 * @example
 * ```ts
 * scrubValue({ user: 'ada', password: 'correct horse' }); // { user: 'ada', password: '[REDACTED]' }
 * scrubValue({ PASS: 'x', ghp_abcdefghijklmnopqrstuvwxyz0123456789: 1 }); // { PASS: '[REDACTED]', '[REDACTED]': 1 }
 * ```
 */
export function scrubValue<T>(value: T): T {
  return walk(value, 0, undefined) as T;
}

function walk(value: unknown, depth: number, key: string | undefined): unknown {
  if (typeof value === 'string') {
    if (key !== undefined && isSecretValue(key, value)) return REDACTED;
    return scrubCredentials(value);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[Truncated]';
  try {
    return walkObject(value, depth);
  } catch {
    return '[Unreadable]'; // a revoked Proxy, a throwing getter or trap
  }
}

function walkObject(value: object, depth: number): unknown {
  if (isThrownError(value)) return scrubError(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = walk(value[i], depth + 1, undefined);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  // for-in rather than Object.keys: no key array per call (the prototype is Object.prototype or
  // null, so it enumerates the same own keys)
  let renamed = false;
  for (const k in value) {
    const item = (value as Record<string, unknown>)[k];
    const scrubbed = walk(item, depth + 1, k);
    if (scrubbed !== item) (copy ??= { ...(value as Record<string, unknown>) })[k] = scrubbed;
    if (!keyKeptAsIs(k)) renamed = true;
  }
  return renamed ? renameKeys(copy ?? (value as Record<string, unknown>)) : (copy ?? value);
}

/** A copy with every token-shaped key scrubbed (in order; keys that scrub alike are numbered). */
function renameKeys(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    let key = scrubCredentials(k);
    for (let n = 2; key !== k && Object.hasOwn(out, key); n++) key = `${scrubCredentials(k)} (${n})`;
    out[key] = value[k];
  }
  return out;
}

/** A copy of the error with the same prototype (class), its text scrubbed, `type` set to its class name. */
function scrubError(err: Error): Error {
  const code = readThrown(err, 'code');
  const name = readThrown(err, 'name');
  const stack = readThrown(err, 'stack');
  const copy = Object.create(Object.getPrototypeOf(err) as object) as Error;
  const own = (key: string, value: unknown, enumerable = true): void =>
    void Object.defineProperty(copy, key, { value, enumerable, writable: true, configurable: true });
  own('type', name);
  own('message', scrubCredentials(thrownMessage(err)));
  if (typeof code === 'string' || typeof code === 'number') own('code', code);
  if (typeof stack === 'string') own('stack', scrubCredentials(stack));
  own('name', name, false);
  return copy;
}
