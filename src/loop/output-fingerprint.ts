import { createHash } from 'node:crypto';
import type { OutputFormat } from '../core/structured-output.js';
import { canonicalJson } from '../results/canonical-json.js';
import { isDeeplyFrozen } from '../tool/deep-freeze.js';

/** Fingerprints of formats that cannot change (deep-frozen, as `outputSchema` makes them). */
const fingerprints = new WeakMap<OutputFormat, string>();

/**
 * A short fingerprint of an output format's name and JSON Schema: a turn's snapshot records it,
 * and a resume whose output schema is not the same fails closed. Made once per deep-frozen format.
 *
 * @example
 * ```ts
 * outputFingerprint(outputSchema(z.object({ city: z.string() })).format); // 'sha256:…' (16 bytes, hex)
 * ```
 */
export function outputFingerprint(format: OutputFormat): string {
  let fingerprint = fingerprints.get(format);
  if (fingerprint === undefined) {
    const digest = createHash('sha256').update(canonicalJson({ name: format.name, schema: format.schema }), 'utf8').digest('hex');
    fingerprint = `sha256:${digest.slice(0, 32)}`;
    if (isDeeplyFrozen(format)) fingerprints.set(format, fingerprint);
  }
  return fingerprint;
}
