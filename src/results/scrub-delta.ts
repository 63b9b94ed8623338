import { REDACTED, scrubCredentials } from './scrub.js';

/** A streamed text delta as rendered, and whether it ended inside a redacted secret. */
export interface ScrubbedDelta {
  readonly text: string;
  readonly inSecret: boolean;
}

/** Characters a token, key or password is made of: what may continue a secret into the next delta. */
const CONTINUATION = /^[A-Za-z0-9_\-+/=.~]+/;

/**
 * Scrubs one streamed delta without holding it back: when the previous delta ended in a
 * redaction, the secret may go on here, so the characters that could continue it are dropped
 * (the `[REDACTED]` already shown stands for them). A secret split so that neither piece is
 * recognised alone needs a window across deltas: a renderer that joins them uses `scrubStream`.
 *
 * @example
 * ```ts
 * let shown = scrubDelta('key sk-abcdefghijklmnopqrstuvwxyz0', false); // 'key [REDACTED]', inSecret
 * shown = scrubDelta('123456 ok', shown.inSecret);                       // ' ok'
 * ```
 */
export function scrubDelta(delta: string, inSecret: boolean): ScrubbedDelta {
  let rest = delta;
  if (inSecret) {
    const tail = CONTINUATION.exec(rest)?.[0] ?? '';
    if (tail.length === rest.length) return { text: '', inSecret: true };
    rest = rest.slice(tail.length);
  }
  const text = scrubCredentials(rest);
  return { text, inSecret: text.endsWith(REDACTED) };
}
