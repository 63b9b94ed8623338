import { argsKey } from './call-signature.js';
import { withField } from './to-prepared.js';
import type { PrepStep } from '../context/resolved-execution.js';
import { prepTexts } from './prep-texts.js';
import { recordArguments } from './prep-context.js';

/**
 * When `dedupEnabled`, a call with the same tool name and the same arguments (keys sorted) as an
 * earlier call of the same batch (iteration) is `deduplicated`:
 * `Skipped duplicate call to '{tool}' with identical arguments.` Tools listed in
 * `dedupExemptTools` or defined with `dedupExempt: true` always run.
 *
 * Cost per call: one key-sorted serialization of the arguments (one `JSON.stringify` for flat
 * objects with their keys in order), looked up among the same tool's earlier calls.
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
  const key = argsKey(call.args);
  if (key === undefined) return call; // unserializable (a cycle): never a duplicate
  if (!recordArguments(ctx, tool.name, key)) return { ...call, filled: { outcome: 'deduplicated', output: prepTexts.duplicate(tool.name), success: false } };
  return withField(call, 'argsKey', key); // the loop detector reuses it
};
