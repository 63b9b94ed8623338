import { describe, expect, it } from 'vitest';
import { scrubCredentials, scrubValue } from '../../src/index.js';
import { leakedWindows, secretsCorpus, secretWindows } from '../fixtures/secrets-corpus.js';
import { leaksOf } from '../fixtures/leak-search.js';

const corpus = secretsCorpus();

describe('values of secret-like keys are redacted whole as [REDACTED], whatever their length', () => {
  it.each([
    ['token=abcd1234efgh', 'token=[REDACTED]'],
    ['api_key: zyxw98765432', 'api_key: [REDACTED]'],
    ['{"password":"correct horse"}', '{"password":"[REDACTED]"}'],
    ["password: 'two words here'", "password: '[REDACTED]'"],
    ['{"token":"abc\\"defghij"}', '{"token":"[REDACTED]"}'],
    ['{"password":"correcthorse","user":"ada"}', '{"password":"[REDACTED]","user":"ada"}'],
    ["secret = 'p4ssw0rd-2024'", "secret = '[REDACTED]'"],
    ['Authorization: Bearer 0123456789abcdef0123', 'Authorization: Bearer [REDACTED]'],
    ['X-Api-Key=QWERTYUIOP12', 'X-Api-Key=[REDACTED]'],
    ['credentials: abcdefgh', 'credentials: [REDACTED]'],
    ['Cookie: sid=0123456789; lang=en', 'Cookie: [REDACTED]'],
  ])('%s', (input, expected) => {
    expect(scrubCredentials(input)).toBe(expected);
  });

  it('short values are redacted whole too (no prefix kept), an empty value is kept', () => {
    expect(scrubCredentials('password=short123')).toBe('password=[REDACTED]');
    expect(scrubCredentials('password=short12')).toBe('password=[REDACTED]');
    expect(scrubCredentials('token: abc')).toBe('token: [REDACTED]');
    expect(scrubCredentials('password=')).toBe('password=');
    expect(scrubCredentials('{"token":""}')).toBe('{"token":""}');
  });
});

describe('well-known token shapes are redacted whole, and URLs keep all but their password', () => {
  it('a token shape in prose becomes [REDACTED]', () => {
    const key = `sk-${'a1B2'.repeat(12)}`;
    expect(scrubCredentials(`use ${key} now`)).toBe('use [REDACTED] now');
  });

  it('a URL keeps its scheme, user, host and path', () => {
    expect(scrubCredentials('postgres://app:hunter22@db/main')).toBe('postgres://app:[REDACTED]@db/main');
    expect(scrubCredentials('redis://:s3cretpw@cache:6379')).toBe('redis://:[REDACTED]@cache:6379');
  });

  it('a private key block is redacted from BEGIN to END, and a cut-off block to its end', () => {
    const block = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\nAoGBAM==\n-----END EC PRIVATE KEY-----';
    expect(scrubCredentials(`a\n${block}\nb`)).toBe('a\n[REDACTED] private key\nb');
    expect(scrubCredentials('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC')).toBe('[REDACTED] private key');
  });
});

describe('a URL password is redacted whole, whatever it holds (`/`, `@`, `:`), and so is one after a user with `@`', () => {
  it.each([
    ['postgres://app:W0n/Ek@db/app', 'postgres://app:[REDACTED]@db/app'],
    ['redis://app:ab@cd@cache', 'redis://app:[REDACTED]@cache'],
    ['redis://app:ab@cd@cache:6379/0', 'redis://app:[REDACTED]@cache:6379/0'],
    ['mysql://root:a/b/c@127.0.0.1:3306/shop', 'mysql://root:[REDACTED]@127.0.0.1:3306/shop'],
    ['amqp://guest:p@ss/w:rd@rabbit/vhost', 'amqp://guest:[REDACTED]@rabbit/vhost'],
    ['mongodb+srv://admin:x@y/z@cluster0.example.net/?retryWrites=true', 'mongodb+srv://admin:[REDACTED]@cluster0.example.net/?retryWrites=true'],
    ['postgres://admin@server:W0n/Ek@server.postgres.example:5432/db', 'postgres://admin@server:[REDACTED]@server.postgres.example:5432/db'],
    ['DATABASE_URL="postgres://app:W0n/Ek@db/app" next', 'DATABASE_URL="postgres://app:[REDACTED]@db/app" next'],
    ['{"url":"redis://:ab@cd@cache"}', '{"url":"redis://:[REDACTED]@cache"}'],
  ])('%s', (input, expected) => {
    const scrubbed = scrubCredentials(input);
    expect(scrubbed).toBe(expected);
    expect(scrubCredentials(scrubbed)).toBe(scrubbed);
  });

  it('a password with / and @ at any two positions is redacted whole', () => {
    const base = 'Ab9xYz12Qw3e';
    for (let slash = 0; slash < base.length; slash++) {
      for (let at = 0; at < base.length; at++) {
        if (at === slash) continue;
        const chars = [...base];
        chars[slash] = '/';
        chars[at] = '@';
        const scrubbed = scrubCredentials(`conn postgres://u:${chars.join('')}@db.internal:5432/app ok`);
        expect(scrubbed).toBe('conn postgres://u:[REDACTED]@db.internal:5432/app ok');
      }
    }
  });
});

describe('the short keys pass and pwd (and passphrase) are secret keys as words of their own', () => {
  it.each([
    ['pwd=hunter2hunter2', 'pwd=[REDACTED]'],
    ['PWD: hunter2hunter2', 'PWD: [REDACTED]'],
    ['MYSQL_PWD=hunter2hunter2', 'MYSQL_PWD=[REDACTED]'],
    ['{"pass": "correct horse"}', '{"pass": "[REDACTED]"}'],
    ['{"pass":"correcthorse"}', '{"pass":"[REDACTED]"}'],
    ['PASS: supersecret1', 'PASS: [REDACTED]'],
    ['DB_PASS=abcdefghij', 'DB_PASS=[REDACTED]'],
    ['smtp-pass = abcdefghij', 'smtp-pass = [REDACTED]'],
    ['{"smtpPwd":"abcdefghij"}', '{"smtpPwd":"[REDACTED]"}'],
    ["pass: 'two words here'", "pass: '[REDACTED]'"],
    ['passphrase=abcdefghij', 'passphrase=[REDACTED]'],
    ['{\\"pwd\\":\\"abcdefghij\\"}', '{\\"pwd\\":\\"[REDACTED]\\"}'],
  ])('%s', (input, expected) => {
    expect(scrubCredentials(input)).toBe(expected);
  });

  it.each(['compass: northwest12', 'bypass=abcdefghijk', 'passenger=abcdefghijk', 'tests passed: 12 of 12', 'pwdump is a tool', 'cwd=/home/user/projects'])(
    'not inside another word: %s',
    (text) => {
      expect(scrubCredentials(text)).toBe(text);
    },
  );

  it('scrubValue redacts string values of pass / pwd keys, not of keys that merely contain the letters', () => {
    const input = { pass: 'abcdefghijk', pwd: 'abcdefghijk', dbPass: 'abcdefghijk', DB_PWD: 'abcdefghijk', passphrase: 'a long phrase', compass: 'northwest12', bypass: 'abcdefghijk' };
    expect(scrubValue(input)).toEqual({
      pass: '[REDACTED]',
      pwd: '[REDACTED]',
      dbPass: '[REDACTED]',
      DB_PWD: '[REDACTED]',
      passphrase: '[REDACTED]',
      compass: 'northwest12',
      bypass: 'abcdefghijk',
    });
  });
});

describe(`a corpus of ${corpus.length} fake credential shapes is scrubbed`, () => {
  it('holds at least 30 distinct shapes, each with a secret long enough to check', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.map((s) => s.name)).size).toBe(corpus.length);
    for (const sample of corpus) {
      expect(sample.text).toContain(sample.secret);
      expect(secretWindows(sample.secret).length).toBeGreaterThan(3);
    }
  });

  it.each(corpus.map((s) => [s.name, s] as const))('%s: no 10-character piece of the secret survives', (_, sample) => {
    const scrubbed = scrubCredentials(sample.text);
    expect(leakedWindows(scrubbed, sample.secret)).toEqual([]);
    expect(scrubbed).toContain('[REDACTED]');
    expect(scrubCredentials(scrubbed)).toBe(scrubbed);
  });
});

describe('innocent text is left alone', () => {
  it.each([
    'the answer is 42',
    '{"id":123456789,"name":"Ada Lovelace","tags":["math","poetry"]}',
    'http://example.com:8080/path?q=1',
    'https://user@example.com/repo.git',
    'max_tokens: 4096',
    'Tokenizer loaded: 50257 entries',
    'skill-based matchmaking',
    'task-management-system-overview',
    'The Basic understanding of bearer bonds',
    '2024-06-11T10:00:00Z INFO request completed in 35ms',
  ])('%s', (text) => {
    expect(scrubCredentials(text)).toBe(text);
  });

  it('adversarial long inputs come back unchanged (the patterns are bounded)', () => {
    const inputs = ['a.'.repeat(50_000), 'a:'.repeat(50_000), `${'x'.repeat(100_000)}://`, 'token'.repeat(20_000), '-----BEGIN'.repeat(5_000)];
    for (const text of inputs) expect(scrubCredentials(text)).toBe(text);
  });
});

describe('scrubValue scrubs structured values without touching the original', () => {
  it('strings at any depth and values of secret-named keys are redacted', () => {
    const input = { user: 'ada', password: 'correct horse battery', nested: { list: [`key ${'ghp_' + 'x'.repeat(36)}`], apiKey: 'abcdefghijk' } };
    const out = scrubValue(input);
    expect(out).toEqual({ user: 'ada', password: '[REDACTED]', nested: { list: ['key [REDACTED]'], apiKey: '[REDACTED]' } });
    expect(input.password).toBe('correct horse battery');
  });

  it('keys are judged the same the first time, the next times, and past the bound of keys remembered', () => {
    const token = `ghp_${'k'.repeat(36)}`;
    const once = () => scrubValue({ password: 'correct horse', [token]: 'x', location: 'Oslo, Norway' });
    const expected = { password: '[REDACTED]', '[REDACTED]': 'x', location: 'Oslo, Norway' };
    expect(once()).toEqual(expected);
    expect(once()).toEqual(expected);
    // 2,000 keys never seen before (past the bound), then fresh secret and token-shaped keys
    for (let k = 0; k < 2000; k++) scrubValue({ [`field_${k}_name`]: 'a long enough value' });
    const fresh = `glpat-${'z'.repeat(20)}`;
    expect(scrubValue({ db_password_2: 'correct horse', [fresh]: 1 })).toEqual({ db_password_2: '[REDACTED]', '[REDACTED]': 1 });
    expect(once()).toEqual(expected);
  });

  it('a clean value is returned as the same object', () => {
    const clean = { a: 1, b: ['x', { c: 'y' }] };
    expect(scrubValue(clean)).toBe(clean);
  });

  it('an error becomes { type, message, stack } with scrubbed text', () => {
    const err = Object.assign(new Error('Incorrect API key provided: sk-abcdefghijklmnopqrstuvwxyz'), { code: 'invalid_api_key' });
    const out = scrubValue({ err }) as unknown as { err: { type: string; message: string; code: string; stack: string } };
    expect(out.err.type).toBe('Error');
    expect(out.err.code).toBe('invalid_api_key');
    expect(out.err.message).toBe('Incorrect API key provided: [REDACTED]');
    expect(leaksOf(out.err.stack, 'sk-abcdefghijklmnop')).toEqual([]);
  });
});
