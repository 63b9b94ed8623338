import { nextRuleWord } from './rule-words.js';
import { ANCHOR_REACH, KEYED_RULES, TOKEN_SHAPES, URL_PASSWORD_RULE } from './scrub-rules.js';

/** Shorter than this, a text is never scrubbed, nor a key renamed, nor a secret key's value redacted. */
export const SCRUB_MIN_LENGTH = 8;

/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Every rule as one pattern's source: the first rule that matches at a position wins (keyed rules
 * first). Scrubbing gives what `text.replace(new RegExp(ALL_RULES, 'g'), …)` would, trying the
 * pattern only near `MAYBE_SECRET`'s words.
 */
export const ALL_RULES = [
  `(?<pem>${TOKEN_SHAPES.privateKeyBlock})`,
  KEYED_RULES.cookieHeader,
  KEYED_RULES.keyValue,
  KEYED_RULES.bearer,
  URL_PASSWORD_RULE,
  ...Object.entries(TOKEN_SHAPES)
    .filter(([name]) => name !== 'privateKeyBlock')
    .map(([, source]) => `(?:${source})`),
].join('|');

/** The rules tried at one position (sticky). */
const AT = new RegExp(ALL_RULES, 'y');

type Groups = Partial<Record<'pem' | 'ck' | 'cv' | 'kk' | 'ke' | 'kev' | 'kq' | 'kqv' | 'ks' | 'kv' | 'bk' | 'bv' | 'up' | 'uv', string>>;

/** A secret value, as rendered: its first 4 characters then `*[REDACTED]`. */
export const redactValue = (value: string): string => `${value.slice(0, 4)}*${REDACTED}`;

/**
 * What a match of `ALL_RULES` becomes: a keyed value keeps its key and its first 4 characters, a
 * URL all but its password, a token shape or a private key block nothing.
 *
 * @example
 * ```ts
 * redaction(new RegExp(ALL_RULES).exec('token=abcd1234efgh')!); // 'token=abcd*[REDACTED]'
 * ```
 */
export function redaction(found: RegExpExecArray): string {
  const match = found[0];
  const g = found.groups as Groups;
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
  // the loop apart: most texts are short names, and a small function is inlined where it is called
  return text.length < SCRUB_MIN_LENGTH ? text : scrubText(text);
}

function scrubText(text: string): string {
  let at = nextRuleWord(text, 0);
  if (at < 0) return text;
  let out = '';
  let copied = 0; // text before this is in `out`
  let from = 0; // no match starts before this: tried, or inside a match
  while (at >= 0) {
    // a match holds a rule word at most ANCHOR_REACH characters after its start: try each start up to this word
    let start = Math.max(from, at - ANCHOR_REACH);
    for (; start <= at; start++) {
      AT.lastIndex = start;
      const found = AT.exec(text);
      if (found === null) continue;
      out += text.slice(copied, start) + redaction(found);
      copied = start + found[0].length;
      break;
    }
    from = start <= at ? Math.max(copied, start + 1) : at + 1;
    at = nextRuleWord(text, from);
  }
  return copied === 0 ? text : out + text.slice(copied);
}
