import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubCredentials } from '../../src/index.js';
import { firstPlaces, nextRuleWord } from '../../src/results/rule-words.js';
import { MAYBE_SECRET } from '../../src/results/scrub-rules.js';
import { ALL_RULES, redaction, SCRUB_MIN_LENGTH } from '../../src/results/scrub.js';
import { secretsCorpus } from '../fixtures/secrets-corpus.js';

/**
 * `scrubCredentials` tries its rules only near the words some rule needs (`MAYBE_SECRET`, at most
 * `ANCHOR_REACH` characters after a match's start). These specs hold it to the one-pass
 * replacement it stands for: every rule over the whole text, the first match at each position.
 */
function everywhere(text: string): string {
  if (text.length < SCRUB_MIN_LENGTH) return text;
  const all = new RegExp(ALL_RULES, 'g');
  let out = '';
  let copied = 0;
  for (let found = all.exec(text); found !== null; found = all.exec(text)) {
    out += text.slice(copied, found.index) + redaction(found);
    copied = found.index + found[0].length;
    if (found[0].length === 0) all.lastIndex++;
  }
  return out + text.slice(copied);
}

const corpus = secretsCorpus();

describe('scrubbing near the words a rule needs redacts what every rule over the whole text would', () => {
  it.each(corpus.map((s) => [s.name, s] as const))('%s, after 0 to 30 characters of word, space or punctuation', (_, sample) => {
    for (const filler of ['x', ' ', '-', '.', '=']) {
      for (let n = 0; n <= 30; n++) {
        const text = `${filler.repeat(n)}${sample.text}${filler}${sample.text}`;
        expect(scrubCredentials(text)).toBe(everywhere(text));
      }
    }
  });

  it('a match whose rule word sits farthest from its start: a URL with a 21-character scheme, a shared access key', () => {
    const url = 'see abcdefghijklmnopqrstu://app:hunter22secret@db.internal/main';
    expect(scrubCredentials(url)).toBe('see abcdefghijklmnopqrstu://app:[REDACTED]@db.internal/main');
    expect(scrubCredentials(url)).toBe(everywhere(url));
    const azure = 'SharedAccessKey=abcdefgh12345678ijkl;EntityPath=q';
    expect(scrubCredentials(azure)).toBe('SharedAccessKey=[REDACTED];EntityPath=q');
    const telegram = 'bot1234567890:AAabcdefghijklmnopqrstuvwxyz0123456 ok';
    expect(scrubCredentials(telegram)).toBe(everywhere(telegram));
    expect(scrubCredentials(telegram)).toContain('[REDACTED]');
  });

  const fragments = fc.constantFrom(
    ...corpus.map((s) => s.text),
    ...corpus.map((s) => s.secret),
    'key',
    'token',
    'pass',
    'Bearer ',
    'cookie',
    '://',
    ':AA',
    'sk-',
    '-----BEGIN RSA PRIVATE KEY-----',
    '-----END RSA PRIVATE KEY-----',
    '=',
    ': ',
    '"',
    "'",
    '\\"',
    '@',
    ' ',
    '\n',
    'abcdefgh12345678',
    'https://',
    'x',
    '_',
    '1',
  );

  it('on random stitchings of secrets, rule words and punctuation', () => {
    fc.assert(
      fc.property(fc.array(fragments, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(scrubCredentials(text)).toBe(everywhere(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('on arbitrary strings, and on text with no rule word (returned as the same string)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(scrubCredentials(text)).toBe(everywhere(text));
      }),
      { numRuns: 500 },
    );
    const plain = 'the answer is 42, and the file has 3 lines';
    expect(scrubCredentials(plain)).toBe(plain);
  });
});

/** Every position where one of `MAYBE_SECRET`'s words starts, by the expression alone. */
function wordStarts(text: string): number[] {
  const word = new RegExp(MAYBE_SECRET.source, 'gi');
  const starts: number[] = [];
  for (let found = word.exec(text); found !== null; found = word.exec(text)) {
    starts.push(found.index);
    word.lastIndex = found.index + 1;
  }
  return starts;
}

function ruleWords(text: string): number[] {
  const starts: number[] = [];
  for (let at = nextRuleWord(text, 0); at >= 0; at = nextRuleWord(text, at + 1)) starts.push(at);
  return starts;
}

describe('nextRuleWord finds the words a rule needs where the expression finds them', () => {
  it('every word of MAYBE_SECRET, in either letter case, after any character', () => {
    const words = ['authoriz', 'TOKEN', 'Key', 'pass', 'pwd', 'secret', 'credential', 'session', '://', ':AA', ':aa', 'sig=', 'sk-', 'ghp_', 'GHR_', 'github_pat', 'glpat-', 'glx-', 'xox', '_live_', '_TEST_', 'whsec', 'AKIA', 'asia', 'AIza', 'GOCSPX', 'ya29', 'eyJ', 'npm_', 'hf_', 'SKf', 'sk9', 'SG.', '_v1_', 'shp', 'dapi', 'pypi-', 'lin_', 'key-', 'BEGIN', 'bearer', 'cookie'];
    for (const word of words) {
      for (const before of ['', 'x', ' ', '\u00e9', '\u212a', '-']) {
        const text = `${before}${word} ok`;
        expect(ruleWords(text), text).toEqual(wordStarts(text));
        expect(ruleWords(text).length, text).toBe(1);
      }
    }
  });

  it('on random stitchings, and on arbitrary strings (non-ASCII letters that fold to ASCII ones included)', () => {
    const piece = fc.constantFrom('ke', 'y', 'to', 'ken', 's', 'k', '-', ':', '/', '/', 'A', 'a', 'gh', 'p', '_', 'x', 'o', '\u017f', '\u212a', '\u0130', 'eyJ', 'SG', '.', '1', 'f', ' ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(ruleWords(text)).toEqual(wordStarts(text));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(ruleWords(text)).toEqual(wordStarts(text));
      }),
      { numRuns: 500 },
    );
  });
});

describe("nextRuleWord's table reads a word's first three places, and refuses what it cannot read", () => {
  it('literals, escaped punctuation and classes with ranges', () => {
    expect(firstPlaces('gh[pousr]_')).toEqual([['g'], ['h'], ['p', 'o', 'u', 's', 'r']]);
    expect(firstPlaces(':\\/\\/')).toEqual([[':'], ['/'], ['/']]);
    expect(firstPlaces('SK[0-9a-c]')[2]).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c']);
    expect(firstPlaces('gl[a-z]{1,3}-')[2]).toHaveLength(26);
  });

  it.each([
    ['\\bkey', 'an assertion'],
    ['\\d\\d:', 'a class escape'],
    ['a.c', 'any character'],
    ['(?:ab)c', 'a group'],
    ['ab?c', 'an optional place'],
    ['abc?', 'an optional third place'],
    ['abc*', 'a third place that may repeat zero times'],
    ['ab[c]{0,2}d', 'a third place that may be absent'],
    ['[^a]bc', 'a negated class'],
    ['ab', 'two characters'],
  ])('%s (%s)', (word) => {
    expect(() => firstPlaces(word)).toThrow(/nextRuleWord reads only literals and classes/);
  });
});
