import { LoopAbortedError } from '../core/errors.js';
import { callSignature } from './call-signature.js';
import type { PrepStep } from '../context/resolved-execution.js';
import { prepTexts } from './prep-texts.js';
import { turnScope } from './turn-scope.js';

/**
 * For every call that needs a prompt (asked in the turn's scope, so a tool the operator allowed
 * with `always` in this conversation is not one), remembers its signature (name lowercased +
 * arguments with sorted keys; for an `approvalMarker` tool, the marker already cleared). A repeat
 * in the same iteration is `deduplicated` without a second prompt; a repeat in a later iteration
 * of a call that was not approved (denied, replaced, unanswered) aborts the turn with
 * `LoopAbortedError`. Unknown, excluded and invalid calls never reach it.
 *
 * ```
 * iteration 1: --s--         s prompted, denied
 * iteration 2: --s--#        the same call again: LoopAbortedError
 * ```
 * @example
 * ```ts
 * promptLoopGuard(call, ctx); // throws LoopAbortedError for a repeated unapproved call
 * ```
 */
export const promptLoopGuard: PrepStep = (call, ctx) => {
  const { resolved, iteration } = ctx;
  const tool = call.tool;
  if (!resolved.approval || !tool || call.filled) return call;
  // the gate's question, in the gate's scope: a call an allowance approves is no prompt to guard
  if (resolved.approval.verdict(tool, turnScope(ctx)) !== 'prompt') return call;
  const signature = callSignature(tool.name.toLowerCase(), call.args);
  if (signature === undefined) return call;
  if (ctx.promptedInBatch.has(signature)) {
    return { ...call, filled: { outcome: 'deduplicated', output: prepTexts.duplicate(tool.name), success: false } };
  }
  const earlier = iteration.promptSignatures.get(signature);
  if (earlier !== undefined && earlier.iteration < iteration.iteration && !earlier.approved) {
    throw new LoopAbortedError(tool.name, prepTexts.promptLoop(tool.name), [...iteration.snapshot.history]);
  }
  ctx.promptedInBatch.add(signature);
  ctx.promptSignatureBySlot.set(call.slot, signature);
  iteration.promptSignatures.set(signature, { iteration: iteration.iteration, approved: false });
  return call;
};
