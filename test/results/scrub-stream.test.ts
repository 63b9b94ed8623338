import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubCredentials } from '../../src/index.js';
import { scrubStream } from '../../src/results/scrub-stream.js';
import { leakedWindows, secretsCorpus } from '../fixtures/secrets-corpus.js';

/** Issue 16, item 4: a secret split across stream chunks must not slip through a renderer. */

const streamed = (text: string, cuts: readonly number[]): string => {
  const s = scrubStream();
  let out = '';
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    out += s.push(text.slice(at, cut));
    at = cut;
  }
  return out + s.push(text.slice(at)) + s.flush();
};

describe('scrubStream carries a window across chunks', () => {
  const corpus = secretsCorpus();

  it.each(corpus.map((s) => [s.name, s] as const))('%s: cut at every position, nothing leaks', (_, sample) => {
    const text = `Here it is: ${sample.text} — keep it safe.\nNext line.`;
    for (let cut = 0; cut <= text.length; cut++) {
      expect({ cut, leaked: leakedWindows(streamed(text, [cut]), sample.secret) }).toEqual({ cut, leaked: [] });
    }
  });

  it('random chunkings of every sample leak nothing, and scrub as the whole text does', () => {
    fc.assert(
      fc.property(fc.constantFrom(...corpus), fc.array(fc.nat(), { maxLength: 12 }), (sample, cuts) => {
        const text = `model says ${sample.text} then more words`;
        const out = streamed(text, cuts);
        expect(leakedWindows(out, sample.secret)).toEqual([]);
        expect(out).toBe(scrubCredentials(text));
      }),
      { numRuns: 400 },
    );
  });

  it('innocent text streams word by word: only the trailing partial word is held', () => {
    const s = scrubStream();
    expect([s.push('Hello wor'), s.push('ld, how '), s.push('are'), s.flush()]).toEqual(['Hello ', 'world, how ', '', 'are']);
  });

  it('a PEM key block is held until its END line, then redacted whole', () => {
    const s = scrubStream();
    const body = 'MIIEowIBAAKCAQEAx4Yk'.repeat(4);
    expect(s.push('key.pem:\n-----BEGIN RSA PRIVATE KEY-----\n')).toBe('key.pem:\n');
    expect(s.push(`${body}\n`)).toBe('');
    expect(s.push(`${body}\n-----END RSA PRIVATE KEY-----\ndone\n`)).toBe('[REDACTED] private key\ndone\n');
  });

  it('a held line is released once it is complete', () => {
    const s = scrubStream();
    expect(s.push('password: hun')).toBe('');
    expect(s.push('ter2hunter2\nnext ')).toBe('password: [REDACTED]\nnext ');
  });
});
