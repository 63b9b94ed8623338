/** The marker argument of `approvalMarker` tools. */
export const APPROVED = 'approved';

/**
 * Arguments with the `approved` marker set to `value`, every other spelling of it (`Approved`,
 * `APPROVED`, ` approved `) removed, so no form the model sends survives.
 *
 * @example
 * ```ts
 * withApprovedMarker({ cmd: 'ls', Approved: 'yes' }, false); // { cmd: 'ls', approved: false }
 * ```
 */
export function withApprovedMarker(args: Record<string, unknown>, value: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args }; // own `__proto__` keys stay plain data
  for (const key of Object.keys(out)) {
    if (key !== APPROVED && key.trim().toLowerCase() === APPROVED) delete out[key];
  }
  out[APPROVED] = value;
  return out;
}
