import type { ProviderEvent } from '../../src/index.js';
import { scrubCredentials } from '../../src/index.js';
import { secretsCorpus, type SecretSample } from '../fixtures/secrets-corpus.js';

/** A secret of the corpus streamed as two deltas, cut inside the secret. */
export interface SplitSecret {
  readonly sample: SecretSample;
  readonly deltas: readonly [string, string];
}

/**
 * Every corpus secret that the model can stream in two pieces neither of which the loop's
 * per-delta scrubbing touches (cut as near the secret's middle as that allows): joined, the
 * pieces are the whole secret. Shapes that have no such cut (a private key block redacts from its
 * BEGIN line on) are left out.
 */
export function splitSecrets(): SplitSecret[] {
  const out: SplitSecret[] = [];
  for (const sample of secretsCorpus()) {
    const line = `Here it is: ${sample.text} — keep it safe.\n`;
    const at = line.indexOf(sample.secret);
    const mid = at + Math.floor(sample.secret.length / 2);
    const cuts = Array.from({ length: sample.secret.length - 1 }, (_, k) => at + 1 + k).sort((a, b) => Math.abs(a - mid) - Math.abs(b - mid));
    const untouched = (piece: string) => scrubCredentials(piece) === piece;
    const cut = cuts.find((c) => untouched(line.slice(0, c)) && untouched(line.slice(c)));
    if (cut !== undefined) out.push({ sample, deltas: [line.slice(0, cut), line.slice(cut)] });
  }
  return out;
}

/** One model response that streams the given pieces as text deltas (then stops). */
export const streamedText = (pieces: readonly string[]): ProviderEvent[] => [
  ...pieces.map((text): ProviderEvent => ({ type: 'text-delta', text })),
  { type: 'finish', reason: 'stop' },
];
