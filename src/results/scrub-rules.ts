/**
 * The credential shapes `scrubCredentials` knows, as regular-expression sources (no flags:
 * they are joined into one case-sensitive global pattern; `ci()` spells a word in either case).
 * Every quantifier that can meet a long run of text is bounded, so scrubbing stays linear.
 */

/** A word matched in any letter case, without the `i` flag (the shapes below are case-sensitive). */
export const ci = (word: string): string =>
  word.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);

/** Short key names that are secrets only as a word of their own (see `wordKey`). */
export const WORD_SECRET_KEYS: readonly string[] = ['pass', 'pwd'];

/** Key names whose values are secrets (`key: value`, `key=value`, `"key": "value"`). */
const SECRET_KEYS = [
  'authorization',
  'token',
  'api[_-]?key',
  'password',
  'passwd',
  'secret',
  'bearer',
  'credential',
  'cookie',
  'private[_-]?key',
  'access[_-]?key',
  'account[_-]?key',
  'shared[_-]?access[_-]?key',
  'subscription[_-]?key',
  'session[_-]?id',
  'passphrase',
]
  .map(ci)
  .concat(WORD_SECRET_KEYS.map(wordKey));

/**
 * The source of a short key that is a secret only as a word of its own (`pass`, `DB_PASS`,
 * `smtpPwd`, `PWD`), not inside another word (`compass`, `bypass`, `passenger`): no letter
 * before it unless it starts a camelCase word, no letter after it.
 *
 * @example
 * ```ts
 * new RegExp(wordKey('pwd')).test('MYSQL_PWD'); // true
 * new RegExp(wordKey('pass')).test('compass');  // false
 * ```
 */
export function wordKey(word: string): string {
  const camel = `${word[0].toUpperCase()}${word.slice(1)}`;
  return `(?:(?<![A-Za-z])${ci(word)}|(?<=[a-z])${camel})(?![A-Za-z])`;
}

/** Shapes redacted whole, as `[REDACTED]`. Named so tests and docs can list them. */
export const TOKEN_SHAPES: Readonly<Record<string, string>> = {
  privateKeyBlock:
    '-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\\s\\S]{0,16384}?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\\s\\\\:-]{0,16384})',
  openAiAnthropic: '\\bsk-[A-Za-z0-9_-]{16,}',
  github: '\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})',
  gitlab: '\\bgl(?:pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_-]{20,}',
  slackToken: '\\bxox[abposre]-[A-Za-z0-9-]{10,}',
  slackWebhook: 'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{8,}',
  stripe: '\\b(?:[sr]k_(?:live|test)|whsec)_[A-Za-z0-9]{16,}',
  awsAccessKeyId: '\\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[A-Z0-9]{16}\\b',
  googleApiKey: '\\bAIza[0-9A-Za-z_-]{35}',
  googleOAuth: '\\b(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\\.[0-9A-Za-z_-]{20,})',
  jwt: '\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}',
  npm: '\\bnpm_[A-Za-z0-9]{36}\\b',
  huggingFace: '\\bhf_[A-Za-z0-9]{30,}',
  twilioApiKey: '\\bSK[0-9a-fA-F]{32}\\b',
  sendGrid: '\\bSG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}',
  digitalOcean: '\\bdo[opr]_v1_[a-f0-9]{64}\\b',
  shopify: '\\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\\b',
  databricks: '\\bdapi[a-f0-9]{32}\\b',
  pypi: '\\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}',
  linear: '\\blin_(?:api|oauth)_[A-Za-z0-9]{40}\\b',
  mailgun: '\\bkey-[0-9a-f]{32}\\b',
  telegramBot: '(?:\\b|(?<=bot))[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\\b',
  azureSasSignature: '\\bsig=[A-Za-z0-9%+/]{20,}={0,2}',
};

/** Authorization schemes kept in front of the value they introduce. */
const SCHEMES = `(?:${ci('bearer')}|${ci('basic')}|${ci('token')}|${ci('digest')})`;
/** A value that is a private key block (redacted whole) or already redacted is left to the other rules. */
const NOT_REDACTED = '(?!-----BEGIN|\\[REDACTED\\])';

/**
 * Rules whose value keeps its first 4 characters, as `abcd*[REDACTED]`. `kk` is kept as it is,
 * `kv` is the value. The scheme word of an Authorization header (`Bearer`, `Basic`) is kept.
 */
export const KEYED_RULES = {
  /** Cookie and Set-Cookie headers: the whole header value, to the end of the line. */
  cookieHeader: `(?<ck>\\b(?:${ci('set-cookie')}|${ci('cookie')})[ \\t]*:[ \\t]*)(?<cv>[^\\r\\n"\\\\]{8,})`,
  /**
   * `key: value` / `key=value` / `"key": "value"` for secret-looking keys, also in JSON held in a
   * JSON string (escaped quotes). A quoted value runs to its closing quote (spaces included,
   * escapes skipped), an escaped-quoted one to the next backslash, a bare one to whitespace or
   * one of `"',;&` (or an escaped quote).
   */
  keyValue:
    `(?<kk>(?:${SECRET_KEYS.join('|')})[A-Za-z0-9_.-]{0,40}(?:\\\\?["'])?[ \\t]*[:=][ \\t]*)` +
    `(?:(?<ke>\\\\["'](?:${SCHEMES}[ \\t]+)?)${NOT_REDACTED}(?<kev>[^"'\\\\\\r\\n]{8,})` +
    `|(?<kq>["'](?:${SCHEMES}[ \\t]+)?)${NOT_REDACTED}(?<kqv>(?:[^"'\\\\\\r\\n]|\\\\.){8,})` +
    `|(?<ks>(?:${SCHEMES}[ \\t]+)?)${NOT_REDACTED}(?<kv>(?:[^\\s"',;&\\\\]|\\\\(?!["'])){8,}))`,
  /** A bare `Bearer <token>`. */
  bearer: `(?<bk>\\b${ci('bearer')}[ \\t]+)(?<bv>[A-Za-z0-9._~+/=-]{16,})`,
} as const;

/**
 * A URL with a password: `scheme://user:password@host` keeps everything but the password. The
 * password runs to the last `@` before whitespace or a quote, so one holding `/` or `@`
 * (`postgres://app:W0n/Ek@db`, `redis://app:ab@cd@cache`) is redacted whole; a user may hold
 * `@` too (`admin@server:pw@host`). A `host:port/path` with a later `@` in the same word is
 * redacted from the port on: a false alarm costs some text, a miss a password.
 */
export const URL_PASSWORD_RULE = '(?<up>\\b[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\\s:/\'"]{0,256}:)(?<uv>[^\\s\'"]{1,256})@';

/**
 * What any rule needs: a secret key word (every keyed rule needs one before its `:` or `=`),
 * `://` (URLs), `:AA` (Telegram bot tokens), `sig=` (Azure SAS) or a token prefix. Strings
 * without any cannot hold a secret we redact, so `scrubCredentials` returns them untouched
 * without running the full pattern — e.g. JSON arguments like `{"path":"a.txt"}` — and in
 * other strings tries the full pattern only near them (`ANCHOR_REACH`).
 */
export const MAYBE_SECRET =
  /authoriz|token|key|pass|pwd|secret|credential|session|:\/\/|:AA|sig=|sk-|gh[pousr]_|github_pat|gl[a-z]{1,3}-|xox|_live_|_test_|whsec|AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA|AIza|GOCSPX|ya29|eyJ|npm_|hf_|SK[0-9a-f]|SG\.|_v1_|shp|dapi|pypi-|lin_|key-|BEGIN|bearer|cookie/i;

/**
 * How far after its own start a match of any rule can hold the first of `MAYBE_SECRET`'s words:
 * 21 characters, for a URL whose scheme is 21 characters long before its `://`; the key words of
 * the keyed rules, the token prefixes and the rest come sooner (`shared_access_key`'s `key` 14
 * characters in). A rule added with a word farther from its start must raise this.
 */
export const ANCHOR_REACH = 21;
