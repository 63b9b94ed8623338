import { WORD_SECRET_KEYS, wordKey } from '../results/scrub-rules.js';
import { scrubCredentials } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';
import { escapeUnsafe } from './escape-unsafe.js';

/** Longest value kept in a summary, in characters; longer ones end with `… (N more characters)`. */
export const SUMMARY_VALUE_CHARS = 80;

const SECRET_KEY = /secret|password|passwd|passphrase|token|apikey|auth|bearer|privatekey|credential/;
/** `pass`, `pwd` as words of their own (`db_pass`, `smtpPwd`), tested on the key as written. */
const WORD_SECRET_KEY = new RegExp(WORD_SECRET_KEYS.map(wordKey).join('|'));

/** Whether a key names a secret (`api_key`, `apiKey`, `Authorization`, `private-key`, `pwd`, …). */
export const isSecretKey = (key: string): boolean =>
  SECRET_KEY.test(key.toLowerCase().replace(/[-_\s]/g, '')) || WORD_SECRET_KEY.test(key);

/**
 * The argument summary an operator sees and the audit log keeps: `path` first, then
 * `key: value` joined by `, `; values cut at 80 characters plus `… (N more characters)`, so a
 * reader always knows something was left out; values of secret-like keys (at any depth) shown as
 * `[redacted]`; control characters escaped; token shapes scrubbed, in keys as in values, at any
 * depth (`scrubValue`, as on the `tool-call` event: an argument key can be a token). `omit`
 * leaves out keys the runtime owns (the `approved` marker). Short by design, for logs and audit
 * lines: a person deciding on a call is shown `formatFullArgs` as well.
 *
 * @example
 * ```ts
 * summarizeArgs({ token: 'abc', path: '/etc/hosts' }); // 'path: /etc/hosts, token: [redacted]'
 * ```
 */
export function summarizeArgs(input: unknown, omit?: string): string {
  const args = scrubValue(input); // token-shaped keys renamed '[REDACTED]' (numbered when several)
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return render(args);
  const parts: string[] = [];
  const record = args as Record<string, unknown>;
  if (Object.hasOwn(record, 'path') && omit !== 'path') parts.push(entry('path', record.path));
  for (const key of Object.keys(record)) {
    if (key === 'path' || key === omit) continue;
    parts.push(entry(key, record[key]));
  }
  return parts.join(', ');
}

function entry(key: string, value: unknown): string {
  return `${escapeUnsafe(cut(key))}: ${isSecretKey(key) ? '[redacted]' : render(value)}`;
}

function render(value: unknown): string {
  if (typeof value === 'string') return escapeUnsafe(cut(scrubCredentials(value)));
  let json: string | undefined;
  try {
    json = JSON.stringify(value, redactSecrets);
  } catch {
    json = undefined;
  }
  return escapeUnsafe(cut(json ?? String(value)));
}

function redactSecrets(this: unknown, key: string, value: unknown): unknown {
  if (key !== '' && !Array.isArray(this) && isSecretKey(key)) return '[redacted]';
  return typeof value === 'string' ? scrubCredentials(value) : value;
}

function cut(text: string): string {
  if (text.length <= SUMMARY_VALUE_CHARS) return text;
  let end = SUMMARY_VALUE_CHARS;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // never split a surrogate pair
  return `${text.slice(0, end)}${cutMarker([...text.slice(end)].length)}`;
}

/**
 * The marker that ends a cut value: how many characters (code points) were left out.
 *
 * @example
 * ```ts
 * cutMarker(57); // '… (57 more characters)'
 * ```
 */
export const cutMarker = (more: number): string => `… (${more} more character${more === 1 ? '' : 's'})`;
