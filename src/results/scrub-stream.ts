import { nextRuleWord } from './rule-words.js';
import { scrubCredentials } from './scrub.js';

/** Scrubs text that arrives in chunks (`scrubStream`). */
export interface StreamScrubber {
  /** Adds a chunk; returns the scrubbed text that is now safe to show (maybe empty). */
  push(chunk: string): string;
  /** Returns the rest, scrubbed (the stream ended). */
  flush(): string;
}

/** Longest text held back before a cut is forced (a private key block scrubs up to 16 KiB). */
const MAX_HOLD = 20_000;
/** How far back a secret-like word still holds its line. */
const LOOK_BACK = 1024;
const OPEN_PEM = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY/g;
const END_PEM = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * A scrubber for streamed text that carries a window across chunks, so a secret split between
 * chunks (`sk-ab` + `cdef…`) is redacted whole. Text is released only where no secret can span
 * the cut: never the trailing partial word, nor anything from a secret-like word of the current
 * line (`token`, `key`, `://`, `sk-`, …) onward, nor an unterminated private key block. Every
 * rule but the key block stays within a line, so released text scrubs as the whole would.
 *
 * @example
 * ```ts
 * const s = scrubStream();
 * s.push('key sk-abcdefgh'); // ''      (held: a secret may continue)
 * s.push('ijklmnopqrst ok'); // ''      (the line holds a secret-like word)
 * s.flush();                 // 'key [REDACTED] ok'
 * ```
 */
export function scrubStream(): StreamScrubber {
  let pending = '';
  return {
    push(chunk: string): string {
      pending += chunk;
      const cut = safeCut(pending);
      if (cut === 0) return '';
      const out = scrubCredentials(pending.slice(0, cut));
      pending = pending.slice(cut);
      return out;
    },
    flush(): string {
      const out = scrubCredentials(pending);
      pending = '';
      return out;
    },
  };
}

/** Where `text` may be cut: everything before it scrubs the same whatever follows. */
function safeCut(text: string): number {
  let cut = lastWhitespaceEnd(text);
  const lineStart = text.lastIndexOf('\n', cut - 1) + 1;
  const from = Math.max(lineStart, cut - LOOK_BACK);
  const hint = nextRuleWord(text, from);
  if (hint >= 0 && hint < cut) cut = Math.min(cut, Math.max(lineStart, lastWhitespaceEnd(text.slice(0, hint))));
  const pem = openPemStart(text.slice(0, cut));
  if (pem >= 0) cut = Math.min(cut, pem);
  if (cut === 0 && text.length > MAX_HOLD) cut = text.length - LOOK_BACK;
  return cut;
}

/** The index just after the last whitespace character (0 when there is none). */
function lastWhitespaceEnd(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (/\s/.test(text[i])) return i + 1;
  return 0;
}

/** The start of a private key block that has not ended yet, or -1. */
function openPemStart(text: string): number {
  let start = -1;
  OPEN_PEM.lastIndex = 0;
  for (let m = OPEN_PEM.exec(text); m !== null; m = OPEN_PEM.exec(text)) start = m.index;
  if (start < 0) return -1;
  END_PEM.lastIndex = start;
  return END_PEM.test(text) ? -1 : text.lastIndexOf('\n', start - 1) + 1;
}
