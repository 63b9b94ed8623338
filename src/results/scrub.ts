import { nextRuleWord } from './rule-words.js';
import { ANCHOR_REACH, KEYED_RULES, TOKEN_SHAPES, URL_PASSWORD_RULE } from './scrub-rules.js';

/**
 * Shorter than this, a text holds nothing to scrub: the shortest match, `pwd=x`, has 5
 * characters (a secret key's value is redacted whatever its length).
 */
export const SCRUB_MIN_LENGTH = 5;

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

/**
 * What a match of `ALL_RULES` becomes: a keyed value keeps its key (and an Authorization
 * scheme), a URL all but its password; the value, the password, a token shape or a private key
 * block becomes `[REDACTED]` whole.
 *
 * @example
 * ```ts
 * redaction(new RegExp(ALL_RULES).exec('token=abcd1234efgh')!); // 'token=[REDACTED]'
 * ```
 */
export function redaction(found: RegExpExecArray): string {
  const match = found[0];
  const g = found.groups as Groups;
  if (g.kev !== undefined) return `${g.kk}${g.ke}${REDACTED}`;
  if (g.kqv !== undefined) return `${g.kk}${g.kq}${REDACTED}`;
  if (g.kv !== undefined) return `${g.kk}${g.ks}${REDACTED}`;
  if (g.cv !== undefined) return g.ck + REDACTED;
  if (g.bv !== undefined) return g.bk + REDACTED;
  if (g.uv !== undefined) return `${g.up}${REDACTED}@`;
  if (g.pem !== undefined) return `${REDACTED} private key`;
  return match.length > 0 ? REDACTED : match;
}

/**
 * Redacts credentials in text meant for people and telemetry: values of secret-like keys in any
 * case (authorization, token, api_key, password, pass, pwd, secret, bearer, credential, cookie,
 * …) become `[REDACTED]` whole, whatever their length; well-known token shapes (`sk-…`, `ghp_…`,
 * `AKIA…`, JWTs, private key blocks, …) become `[REDACTED]` wherever they stand, glued to a word
 * or not; URLs keep all but their password. Idempotent, linear in the text, and free for short
 * or innocent strings. Never applied to history or to receipt input.
 *
 * @example
 * ```ts
 * scrubCredentials('PASSWORD=hunter2');                // 'PASSWORD=[REDACTED]'
 * scrubCredentials('{"pass": "x", "user": "ada"}');    // '{"pass": "[REDACTED]", "user": "ada"}'
 * scrubCredentials('key:xsk-proj-abcdefghijklmnop1');  // 'key:x[REDACTED]'
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
