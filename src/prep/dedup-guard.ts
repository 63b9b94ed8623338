import { callSignature } from './call-signature.js';
import type { PrepStep } from './prep-step.js';
import { prepTexts } from './prep-texts.js';

/**
 * When `dedupEnabled`, a call with the same tool name and the same arguments (keys sorted) as an
 * earlier call of the same batch (iteration) is `deduplicated`:
 * `Skipped duplicate call to '{tool}' with identical arguments.` Tools listed in
 * `dedupExemptTools` or defined with `dedupExempt: true` always run. Arguments are serialized only
 * when a tool name repeats, so a batch of distinct tools costs one map lookup per call.
 *
 * ```
 * calls:  (a b a')       a' = a with its keys in another order
 * result: (a b d)        d: deduplicated
 * ```
 * @example
 * ```ts
 * from(calls).pipe(prepareCalls(resolved, turn, [resolveTool, dedupGuard]));
 * ```
 */
export const dedupGuard: PrepStep = (call, ctx) => {
  const tool = call.tool;
  const { knobs } = ctx.resolved;
  if (!tool || call.filled || !knobs.dedupEnabled || tool.dedupExempt) return call;
  if (knobs.dedupExemptTools.length > 0 && knobs.dedupExemptTools.includes(tool.name)) return call;
  const seen = ctx.seen.get(tool.name);
  if (seen === undefined) {
    ctx.seen.set(tool.name, { first: call.args });
    return call;
  }
  if (seen.signatures === undefined) {
    seen.signatures = new Set();
    const first = callSignature(tool.name, seen.first);
    if (first !== undefined) seen.signatures.add(first);
  }
  const signature = callSignature(tool.name, call.args);
  if (signature === undefined) return call;
  if (seen.signatures.has(signature)) {
    return { ...call, filled: { outcome: 'deduplicated', output: prepTexts.duplicate(tool.name), success: false } };
  }
  seen.signatures.add(signature);
  return call;
};
