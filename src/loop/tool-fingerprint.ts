import { createHash } from 'node:crypto';
import type { Tool, ToolSpec } from '../core/tool.js';
import { canonicalJson } from '../results/canonical-json.js';
import { isDeeplyFrozen } from '../tool/deep-freeze.js';

/** Fingerprints of specs that cannot change (see `toolFingerprint`). */
const fingerprints = new WeakMap<ToolSpec, string>();

/**
 * A short fingerprint of a tool's name and parameter schema: a parked turn records it for each
 * prepared call, and a resume whose tool's schema changed since fails closed. A tool whose spec
 * cannot change (frozen, its name the tool's, its parameters deep-frozen: `defineTool`'s and MCP
 * tools') is fingerprinted once, not at every park, checkpoint and resume (a SHA-256 of its
 * schema's canonical JSON each time).
 *
 * @example
 * ```ts
 * toolFingerprint(tool); // 'sha256:3f1c…' (16 bytes, hex)
 * ```
 */
export function toolFingerprint(tool: Tool): string {
  const { spec } = tool;
  const fixed = Object.isFrozen(spec) && spec.name === tool.name && isDeeplyFrozen(spec.parameters);
  let fingerprint = fixed ? fingerprints.get(spec) : undefined;
  if (fingerprint === undefined) {
    fingerprint = fingerprintOf(tool);
    if (fixed) fingerprints.set(spec, fingerprint);
  }
  return fingerprint;
}

function fingerprintOf(tool: Tool): string {
  const digest = createHash('sha256').update(canonicalJson({ name: tool.name, parameters: tool.spec.parameters }), 'utf8').digest('hex');
  return `sha256:${digest.slice(0, 32)}`;
}
