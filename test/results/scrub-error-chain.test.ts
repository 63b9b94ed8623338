import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/index.js';
import { scrubErrorChain } from '../../src/results/scrub-error-chain.js';
import { leaksOf } from '../fixtures/leak-search.js';

/** Issue 16, item 6: an error scrubbed whole — message, stack, cause chain, JSON — of the same class. */

const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdEFGH';

describe('scrubErrorChain copies an error with every text scrubbed, and keeps a clean one as it is', () => {
  it('a ProviderError keeps its class, code and status; message, stack and JSON are scrubbed', () => {
    const shown = scrubErrorChain(new ProviderError(`Incorrect API key provided: ${KEY}`, { status: 401 }));
    expect(shown).toBeInstanceOf(ProviderError);
    expect([shown.name, shown.code, shown.status]).toEqual(['ProviderError', 'provider_error', 401]);
    expect(shown.message).toBe('Incorrect API key provided: [REDACTED]');
    expect(leaksOf(`${shown.stack} ${JSON.stringify(shown)}`, KEY.slice(8, 20))).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['an Error', new TypeError(`bad ${KEY}`)],
    ['a string', `bad ${KEY}`],
    ['a plain body', { error: { message: `bad ${KEY}` }, authorization: 'Bearer abcdefghijklmnop' }],
    ['an array', [`bad ${KEY}`]],
  ])('a cause that is %s is scrubbed (and so is a secret-like key’s value)', (_, cause) => {
    const shown = scrubErrorChain(new Error('outer', { cause }));
    const text = JSON.stringify(shown.cause) ?? '';
    expect(leaksOf(`${text} ${String((shown.cause as Error).message)} ${String((shown.cause as Error).stack)}`, KEY.slice(8, 20))).toEqual([]);
    expect(leaksOf(text, 'efghijklmnop')).toEqual([]);
  });

  it('the redaction given runs on every text first (a key that looks like no token)', () => {
    const shown = scrubErrorChain(new Error('x', { cause: new Error('key plain-gateway-key') }), (t) => t.split('plain-gateway-key').join('[REDACTED]'));
    expect((shown.cause as Error).message).toBe('key [REDACTED]');
  });

  it('a redaction that throws redacts nothing; the scrubber still runs', () => {
    const shown = scrubErrorChain(new Error(`x ${KEY}`), () => {
      throw new Error('broken');
    });
    expect(shown.message).toBe('x [REDACTED]');
  });

  it('an error with nothing to scrub, and its causes, are the very objects given', () => {
    const cause = new RangeError('fine');
    const err = new Error('fine too', { cause });
    expect(scrubErrorChain(err)).toBe(err);
    expect(scrubErrorChain(err).cause).toBe(cause);
  });

  it('never throws: a revoked Proxy cause, a throwing getter, a cycle', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const getter = new Error('g');
    Object.defineProperty(getter, 'detail', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    const cyclic = new Error(`c ${KEY}`);
    (cyclic as { cause?: unknown }).cause = cyclic;
    for (const err of [new Error('p', { cause: proxy }), getter, cyclic]) {
      expect(() => scrubErrorChain(err)).not.toThrow();
    }
    expect(scrubErrorChain(cyclic).message).toBe('c [REDACTED]');
  });
});
