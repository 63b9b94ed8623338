import { describe, expect, it } from 'vitest';
import { scrubCredentials, scrubValue } from '../../src/index.js';
import { summarizeArgs } from '../../src/approval/summarize-args.js';
import { shownValue } from '../../src/results/shown-value.js';
import { leakedWindows, secretsCorpus } from '../fixtures/secrets-corpus.js';

/**
 * The scrubbing rule by class (BEHAVIOUR.md, "Observability"): token shapes wherever they stand,
 * glued to a word or not; secret keys in any case; their values redacted whole, whatever their
 * length. Every value here is fake.
 */

/** The corpus' secrets that are token shapes on their own (`sk-…`, `ghp_…`, `AKIA…`, JWTs, …). */
const tokenShaped = secretsCorpus().filter((s) => scrubCredentials(s.secret) === '[REDACTED]');

const scrubsTo = (cases: readonly (readonly [string, string])[]): void => {
  for (const [input, expected] of cases) {
    expect(scrubCredentials(input), input).toBe(expected);
    expect(scrubCredentials(expected), expected).toBe(expected); // idempotent
  }
};
const keptAsIs = (texts: readonly string[]): void => {
  for (const text of texts) expect(scrubCredentials(text), text).toBe(text);
};

describe('1. token shapes are redacted wherever they stand, glued to a word or not', () => {
  it(`each of the corpus' ${tokenShaped.length} token shapes, glued after a letter, an underscore, a digit or a word`, () => {
    expect(tokenShaped.length).toBeGreaterThanOrEqual(20);
    for (const { secret } of tokenShaped) {
      for (const glue of ['x', '_', '1', 'my', 'Key', 'a.b/']) {
        const scrubbed = scrubCredentials(`${glue}${secret} ok`);
        expect(scrubbed, `${glue}${secret}`).toBe(`${glue}[REDACTED] ok`);
        expect(leakedWindows(scrubbed, secret)).toEqual([]);
      }
    }
  });

  it('the shapes the review found missed', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    scrubsTo([
      ['key xsk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t ok', 'key x[REDACTED] ok'],
      ['xsk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv', 'x[REDACTED]'],
      ['_sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', '_[REDACTED]'],
      ['OPENAI_sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', 'OPENAI_[REDACTED]'],
      ['1ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7C', '1[REDACTED]'],
      ['xAKIAIOSFODNN7EXAMPLE', 'x[REDACTED]'],
      ['aws_AKIAIOSFODNN7EXAMPLE_prod', 'aws_[REDACTED]_prod'],
      [`token${jwt}`, 'token[REDACTED]'],
      [`Bearer_${jwt} rest`, 'Bearer_[REDACTED] rest'],
      ['x_sk_live_51Hab3dEf6hIj9kLm2nOp5qRs8t', 'x_[REDACTED]'],
      ['my_hf_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', 'my_[REDACTED]'],
      ['keySG.Ab3dEf6hIj9kLm2nOp5qRs.Tu1vWx2yZa3bCd4eFg5hIj6kLm7nOp8qRs9tUv0wXy1zA2b', 'key[REDACTED]'],
      ['bot_1234567890:AAAb3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zA', 'bot_[REDACTED]'],
    ]);
  });

  it('a URL with a password, glued to a word', () => {
    scrubsTo([
      ['DB_postgres://app:hunter22@db/main', 'DB_postgres://app:[REDACTED]@db/main'],
      ['url_redis://:s3cret@cache:6379', 'url_redis://:[REDACTED]@cache:6379'],
      ['x1https://u:p@host/a', 'x1https://u:[REDACTED]@host/a'],
    ]);
  });

  it('glued, a prefix that ends an ordinary word counts only before a body that looks random', () => {
    keptAsIs([
      'risk-assessment-of-the-quarterly-plan',
      'desk-reservation-system',
      'kiosk-internationalization-guide',
      'disk-usage-report-2024-final',
      'task_test_runnerConfigurationObject',
      'mask_live_previewEnabledState',
      'weighs_thirtyCharactersOfCamelCaseText',
      'load_hf_checkpointFromPretrainedWeightsNow',
      'ERROR_MSG.connectionRefusedMessage.defaultTranslation',
      'surveyJsonData.questionList.getElements',
    ]);
    // letters and digits mixed: random-looking, redacted (a token glued to `ta`)
    scrubsTo([['task-a1B2c3D4e5F6g7H8i9', 'ta[REDACTED]']]);
  });
});

describe('2. secret keys in any case; token shapes in the case their vendor issues them', () => {
  it('keys in text, in upper, lower, title and mixed case', () => {
    scrubsTo([
      ['API_KEY=abc123', 'API_KEY=[REDACTED]'],
      ['Api-Key: abc123', 'Api-Key: [REDACTED]'],
      ['PASSWORD: hunter2', 'PASSWORD: [REDACTED]'],
      ['Password=hunter2', 'Password=[REDACTED]'],
      ['{"TOKEN": "abc"}', '{"TOKEN": "[REDACTED]"}'],
      ['{"Access_Token":"abc"}', '{"Access_Token":"[REDACTED]"}'],
      ['AUTHORIZATION: Basic dXNlcjpwYXNz', 'AUTHORIZATION: Basic [REDACTED]'],
      ['authorization: bearer abc', 'authorization: bearer [REDACTED]'],
      ['SECRET=x', 'SECRET=[REDACTED]'],
      ['CREDENTIALS: abc', 'CREDENTIALS: [REDACTED]'],
      ['COOKIE: sid=1', 'COOKIE: [REDACTED]'],
      ['BEARER=abc', 'BEARER=[REDACTED]'],
      ['PWD=1', 'PWD=[REDACTED]'],
      ['MySQL_Pass: pw', 'MySQL_Pass: [REDACTED]'],
    ]);
  });

  it('keys of structured values, in any case', () => {
    const input = { API_KEY: 'x', Password: 'hunter2', TOKEN: 'abc', Authorization: 'Bearer abc', SECRET: 'y', Cookie: 'a=b', PWD: '1', dbPass: 'p' };
    const redacted = Object.fromEntries(Object.keys(input).map((k) => [k, '[REDACTED]']));
    expect(scrubValue(input)).toEqual(redacted);
    expect(shownValue(input, 50_000)).toEqual(redacted);
    expect(summarizeArgs({ API_KEY: 'x', Password: 'y' })).toBe('API_KEY: [redacted], Password: [redacted]');
  });

  it('token shapes are case-sensitive: an upper- or lower-cased token is no credential', () => {
    keptAsIs([
      'GHP_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7C',
      'SK-AB3DEF6HIJ9KLM2NOP5QRS8TUV',
      'akiaiosfodnn7example',
      'EYJHBGCIOIJIUZI1NIJ9.EYJZDWIIOIIXMJM0IN0.ABCDEFGHIJKLMNOP',
    ]);
  });
});

describe('3. values of secret keys are redacted whole, whatever their length', () => {
  it('in text: any length from one character, quoted or bare, no prefix kept', () => {
    scrubsTo([
      ['password=hunter2', 'password=[REDACTED]'],
      ['{"pass":"hunter2"}', '{"pass":"[REDACTED]"}'],
      ['{"pass": "x", "user": "ada"}', '{"pass": "[REDACTED]", "user": "ada"}'],
      ['token: abc', 'token: [REDACTED]'],
      ['pwd=1', 'pwd=[REDACTED]'],
      ["secret = 'a b'", "secret = '[REDACTED]'"],
      ['Authorization: Bearer x', 'Authorization: Bearer [REDACTED]'],
      ['Cookie: a=1', 'Cookie: [REDACTED]'],
      ['{\\"api_key\\":\\"k\\"}', '{\\"api_key\\":\\"[REDACTED]\\"}'],
    ]);
  });

  it('in query strings', () => {
    scrubsTo([
      ['GET /download?token=abc&dl=1', 'GET /download?token=[REDACTED]&dl=1'],
      ['https://api.example.test/v1?access_token=a1&page=2', 'https://api.example.test/v1?access_token=[REDACTED]&page=2'],
      ['/cb?code=x&password=p', '/cb?code=x&password=[REDACTED]'],
    ]);
  });

  it('prose and code that are no `key: value` are kept: counts, comparisons, literals, empty values', () => {
    keptAsIs([
      'the password is required',
      'max_tokens: 4096',
      '{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}',
      'tokenCount=12, token_limit: 100, tokenizer: cl100k',
      'if token == None:',
      'const f = (token) => token',
      'password::Type and token := next()',
      '{"token": null, "password": false}',
      'password=\n"token": ""',
    ]);
  });

  it('a word after `key:` in prose is a value: redacted (the rule for `key: value` shapes)', () => {
    scrubsTo([
      ['token: count', 'token: [REDACTED]'],
      ['tests pass: 12 of 12', 'tests pass: [REDACTED] of 12'],
    ]);
  });

  it('in structured values: any length, empty kept, idempotent', () => {
    expect(scrubValue({ pass: 'hunter2' })).toEqual({ pass: '[REDACTED]' });
    expect(scrubValue({ token: 'a', pwd: '1', user: 'ada' })).toEqual({ token: '[REDACTED]', pwd: '[REDACTED]', user: 'ada' });
    const kept = { password: '', max_tokens: '4096', note: 'hi' };
    expect(scrubValue(kept)).toBe(kept);
    const done = { password: '[REDACTED]', nested: { token: '[REDACTED]' } };
    expect(scrubValue(done)).toBe(done);
    expect(shownValue(done, 50_000)).toBe(done);
    expect(shownValue({ PASS: 'x' }, 50_000)).toEqual({ PASS: '[REDACTED]' });
  });
});
