import { createHash } from 'node:crypto';
import type { Tool } from '../core/tool.js';
import { canonicalJson } from '../results/canonical-json.js';

/**
 * A short fingerprint of a tool's name and parameter schema: a parked turn records it for each
 * prepared call, and a resume whose tool's schema changed since fails closed.
 *
 * @example
 * ```ts
 * toolFingerprint(tool); // 'sha256:3f1c…' (16 bytes, hex)
 * ```
 */
export function toolFingerprint(tool: Tool): string {
  const digest = createHash('sha256').update(canonicalJson({ name: tool.name, parameters: tool.spec.parameters }), 'utf8').digest('hex');
  return `sha256:${digest.slice(0, 32)}`;
}
