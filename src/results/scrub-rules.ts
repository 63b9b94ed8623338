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

/**
 * `token` as a key, but not `tokens`, `max_tokens`, `tokenizer`, `token_count`, `tokenLimit`,
 * `token_usage`: keys of counts and settings that LLM usage reports and logs are full of, whose
 * values are numbers, not secrets (`max_tokens: 4096` is kept).
 */
const TOKEN_KEY = `${ci('token')}(?![sS]|[iI][sSzZ]|[_-]?(?:${ci('count')}|${ci('limit')}|${ci('usage')}))`;

/** Key names whose values are secrets (`key: value`, `key=value`, `"key": "value"`), in any case. */
const SECRET_KEYS = [
  'authorization',
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
  .concat(TOKEN_KEY, WORD_SECRET_KEYS.map(wordKey));

/**
 * The source of a key name whose values are secrets, found anywhere in a key (`X-Api-Key`,
 * `DB_PASSWORD`, `access_token`, `smtpPwd`): the keyed rules below, and `scrubValue`'s keys.
 *
 * @example
 * ```ts
 * new RegExp(SECRET_KEY_SOURCE).test('GITHUB_TOKEN'); // true
 * new RegExp(SECRET_KEY_SOURCE).test('max_tokens');   // false
 * ```
 */
export const SECRET_KEY_SOURCE = SECRET_KEYS.join('|');

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

/**
 * A token shape that is found wherever it stands: after a word boundary as written, and glued to
 * a word (`xsk-…`, `_ghp_…`, `1AKIA…`, `tokeneyJ…`). When `glued` is given, a glued prefix counts
 * only if `glued` also holds after it (a lookahead): for prefixes that end common words
 * (`risk-`, `desk-`, `mask_live_`, `MSG.`, `surveyJ…`), the body must look random, not like the
 * rest of a word. The prefix comes first, its boundary looked at behind it, so that every shape
 * starts with its literal prefix (what keeps the joined pattern quick to refuse a position).
 */
const anywhere = (prefix: string, body: string, glued?: string): string =>
  glued === undefined ? `${prefix}${body}` : `${prefix}(?:(?<!\\w${prefix})|(?=${glued}))${body}`;

/** Glued guard: a digit among the body's next 64 characters (random tokens nearly always hold one). */
const DIGIT = '[A-Za-z_-]{0,63}[0-9]';
/**
 * Glued guard for `sk-`: OpenAI's and Anthropic's prefixes (`sk-proj-`, `sk-ant-`, …), or 16
 * letters and digits in a row holding both among the first 48 — not `risk-assessment-plan`.
 */
const SK_GLUED = '(?:proj|ant|svcacct|admin)-|(?=[A-Za-z0-9]{16})(?=[A-Za-z]{0,47}[0-9])(?=[0-9]{0,47}[A-Za-z])';

/**
 * Glued guard for `eyJ`: three segments within bounds (so that a glued `eyJ` costs a bounded look,
 * however many stand in a row) and a digit in the header or the payload — not
 * `surveyJsonData.questionList.getElements`.
 */
const JWT_GLUED =
  '(?=[A-Za-z0-9_-]{8,256}\\.[A-Za-z0-9_-]{8,4096}\\.[A-Za-z0-9_-]{8})[A-Za-z_-]{0,256}(?:[0-9]|\\.[A-Za-z_-]{0,4096}[0-9])';

/**
 * Shapes redacted whole, as `[REDACTED]`, wherever they stand (`anywhere`): a shape without a
 * glued guard has a prefix no word ends with (`glpat-`, `AKIA`, `AIza`, `npm_`, `:AA`, …) and
 * needs no boundary at all. Named so tests and docs can list them. Case-sensitive as the vendors issue them: the "any case" of key names does
 * not apply (`GHP_…` or `SK-…` is no credential: an upper-cased token does not authenticate).
 * `sig=` is a query parameter's name, so it keeps its word boundary.
 */
export const TOKEN_SHAPES: Readonly<Record<string, string>> = {
  privateKeyBlock:
    '-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\\s\\S]{0,16384}?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\\s\\\\:-]{0,16384})',
  openAiAnthropic: anywhere('sk-', '[A-Za-z0-9_-]{16,}', SK_GLUED),
  github: `(?:${anywhere('gh[pousr]_', '[A-Za-z0-9]{30,}', DIGIT)}|github_pat_[A-Za-z0-9_]{30,})`,
  gitlab: 'gl(?:pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_-]{20,}',
  slackToken: 'xox[abposre]-[A-Za-z0-9-]{10,}',
  slackWebhook: 'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{8,}',
  stripe: anywhere('(?:[sr]k_(?:live|test)|whsec)_', '[A-Za-z0-9]{16,}', DIGIT),
  awsAccessKeyId: '(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])',
  googleApiKey: 'AIza[0-9A-Za-z_-]{35}',
  googleOAuth: '(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\\.[0-9A-Za-z_-]{20,})',
  jwt: anywhere('eyJ', '[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}', JWT_GLUED),
  npm: 'npm_[A-Za-z0-9]{36}\\b',
  huggingFace: anywhere('hf_', '[A-Za-z0-9]{30,}', DIGIT),
  twilioApiKey: 'SK[0-9a-fA-F]{32}\\b',
  sendGrid: anywhere('SG\\.', '[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}', '[A-Za-z0-9_-]{22}\\.'),
  digitalOcean: 'do[opr]_v1_[a-f0-9]{64}\\b',
  shopify: 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\\b',
  databricks: 'dapi[a-f0-9]{32}\\b',
  pypi: 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}',
  linear: 'lin_(?:api|oauth)_[A-Za-z0-9]{40}\\b',
  mailgun: 'key-[0-9a-f]{32}\\b',
  telegramBot: '[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\\b',
  azureSasSignature: '\\bsig=[A-Za-z0-9%+/]{20,}={0,2}',
};

/** Authorization schemes kept in front of the value they introduce. */
const SCHEMES = `(?:${ci('bearer')}|${ci('basic')}|${ci('token')}|${ci('digest')})`;
/**
 * A value that is a private key block (redacted whole) or already redacted, after a scheme or
 * not, is left to the other rules.
 */
const NOT_REDACTED = `(?!(?:${SCHEMES}[ \\t]+)?(?:-----BEGIN|\\[REDACTED\\]))`;
/**
 * A bare value that is no secret: a JSON literal (`"token": null`), or what follows a key in code
 * rather than a value: `==`, `=>`, `::`, `:=`, an object or an array (`token == None`,
 * `"cookie": {`).
 */
const NOT_CODE = `(?!(?:null|true|false|undefined|None)(?:[\\s"',;&}\\])]|$)|[=:>{[])`;

/**
 * Rules whose value is redacted whole, whatever its length (`token: abc` → `token: [REDACTED]`).
 * `kk` is kept as it is, `kv` is the value. The scheme word of an Authorization header
 * (`Bearer`, `Basic`) is kept.
 */
export const KEYED_RULES = {
  /** Cookie and Set-Cookie headers: the whole header value, to the end of the line. */
  cookieHeader: `(?<ck>\\b(?:${ci('set-cookie')}|${ci('cookie')})[ \\t]*:[ \\t]*)(?<cv>[^\\r\\n"\\\\]+)`,
  /**
   * `key: value` / `key=value` / `"key": "value"` for secret-looking keys (`SECRET_KEY_SOURCE`),
   * also in JSON held in a JSON string (escaped quotes) and in query strings (`?token=abc&x=1`).
   * A quoted value runs to its closing quote (spaces included, escapes skipped), an
   * escaped-quoted one to the next backslash, a bare one to whitespace or one of `"',;&` (or an
   * escaped quote). An empty value is kept.
   */
  keyValue:
    `(?<kk>(?:${SECRET_KEY_SOURCE})[A-Za-z0-9_.-]{0,40}(?:\\\\?["'])?[ \\t]*[:=][ \\t]*)` +
    `(?:(?<ke>\\\\["']${NOT_REDACTED}(?:${SCHEMES}[ \\t]+)?)(?<kev>[^"'\\\\\\r\\n]+)` +
    `|(?<kq>["']${NOT_REDACTED}(?:${SCHEMES}[ \\t]+)?)(?<kqv>(?:[^"'\\\\\\r\\n]|\\\\.)+)` +
    `|${NOT_REDACTED}(?<ks>(?:${SCHEMES}[ \\t]+)?)${NOT_CODE}(?<kv>(?:[^\\s"',;&\\\\]|\\\\(?!["']))+))`,
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
export const URL_PASSWORD_RULE = '(?<up>(?<![A-Za-z])[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\\s:/\'"]{0,256}:)(?<uv>[^\\s\'"]{1,256})@';

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
