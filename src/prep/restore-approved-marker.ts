import type { PrepStep } from '../context/resolved-execution.js';
import { withApprovedMarker } from './with-approved-marker.js';

/**
 * For a tool defined with `approvalMarker: true`, sets `args.approved = true` only when the
 * approval gate approved this call (an operator's yes or always, or policy); otherwise it stays
 * `false` — also after argument validation, whatever the schema did with it.
 *
 * ```
 * call:   --c--            c: shell { cmd, approved: false }, approved by the gate
 * result: --c'--           c': shell { cmd, approved: true }
 * ```
 * @example
 * ```ts
 * restoreApprovedMarker(call, ctx).args.approved; // true after an operator's yes
 * ```
 */
export const restoreApprovedMarker: PrepStep = (call, ctx) =>
  call.tool?.approvalMarker ? { ...call, args: withApprovedMarker(call.args, ctx.approved.has(call.slot)) } : call;
