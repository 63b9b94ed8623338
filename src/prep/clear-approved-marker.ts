import type { PrepStep } from '../context/resolved-execution.js';
import { withApprovedMarker } from './with-approved-marker.js';

/**
 * For a tool defined with `approvalMarker: true`, sets `args.approved = false` whatever the
 * model (or a hook) sent — `true`, `'true'`, `1`, `'yes'`, or another spelling of the key. Only
 * an approval restores it (`restoreApprovedMarker`).
 *
 * ```
 * call:   --c--            c: shell { cmd, approved: true }
 * result: --c'--           c': shell { cmd, approved: false }
 * ```
 * @example
 * ```ts
 * clearApprovedMarker(call, ctx).args.approved; // false
 * ```
 */
export const clearApprovedMarker: PrepStep = (call) =>
  call.tool?.approvalMarker ? { ...call, args: withApprovedMarker(call.args, false) } : call;
