import { KEYED_RULES, MAYBE_SECRET, TOKEN_SHAPES, URL_PASSWORD_RULE } from './scrub-rules.js';

/** Shorter than this, a text is never scrubbed, nor a key renamed, nor a secret key's value redacted. */
export const SCRUB_MIN_LENGTH = 8;

/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

/** One pass over the text: the first rule that matches at a position wins (keyed rules first). */
const ALL = new RegExp(
  [
    `(?<pem>${TOKEN_SHAPES.privateKeyBlock})`,
    KEYED_RULES.cookieHeader,
    KEYED_RULES.keyValue,
    KEYED_RULES.bearer,
    URL_PASSWORD_RULE,
    ...Object.entries(TOKEN_SHAPES)
      .filter(([name]) => name !== 'privateKeyBlock')
      .map(([, source]) => `(?:${source})`),
  ].join('|'),
  'g',
);

type Groups = Partial<Record<'pem' | 'ck' | 'cv' | 'kk' | 'ke' | 'kev' | 'kq' | 'kqv' | 'ks' | 'kv' | 'bk' | 'bv' | 'up' | 'uv', string>>;

/** A secret value, as rendered: its first 4 characters then `*[REDACTED]`. */
export const redactValue = (value: string): string => `${value.slice(0, 4)}*${REDACTED}`;

function replace(match: string, ...rest: unknown[]): string {
  const g = rest[rest.length - 1] as Groups;
  if (g.kev !== undefined) return `${g.kk}${g.ke}${redactValue(g.kev)}`;
  if (g.kqv !== undefined) return `${g.kk}${g.kq}${redactValue(g.kqv)}`;
  if (g.kv !== undefined) return `${g.kk}${g.ks}${redactValue(g.kv)}`;
  if (g.cv !== undefined) return g.ck + redactValue(g.cv);
  if (g.bv !== undefined) return g.bk + redactValue(g.bv);
  if (g.uv !== undefined) return `${g.up}${REDACTED}@`;
  if (g.pem !== undefined) return `${REDACTED} private key`;
  return match.length > 0 ? REDACTED : match;
}

/**
 * Redacts credentials in text meant for people and telemetry: values of secret-like keys
 * (authorization, token, api_key, password, secret, bearer, credential, cookie, … — 8 or more
 * characters) keep their first 4 characters then `*[REDACTED]`; well-known token shapes
 * (`sk-…`, `ghp_…`, `AKIA…`, JWTs, private key blocks, …) become `[REDACTED]`; URLs keep all but
 * their password. Idempotent, linear in the text, and free for short or innocent strings.
 * Never applied to history or to receipt input.
 *
 * @example
 * ```ts
 * scrubCredentials('token=abcd1234efgh');              // 'token=abcd*[REDACTED]'
 * scrubCredentials('postgres://app:hunter22@db/main'); // 'postgres://app:[REDACTED]@db/main'
 * ```
 */
export function scrubCredentials(text: string): string {
  if (text.length < SCRUB_MIN_LENGTH || !MAYBE_SECRET.test(text)) return text;
  return text.replace(ALL, replace);
}
