/**
 * A statement's condition that holds while `attempt` (the parameter `$n`; null: no fence) is the
 * turn's (`turnId`: an expression). It locks the turn's row FOR SHARE: a claim that commits while
 * the statement runs makes it write nothing, and a claim waits for a write that passed, so
 * nothing of an older attempt lands after a takeover.
 *
 * @example
 * ```ts
 * const fenced = holding('$1', 3); // the WHERE condition of a write fenced by the attempt in $3
 * ```
 */
export const holding = (turnId: string, n: number): string => `($${n}::integer IS NULL OR EXISTS (SELECT 1 FROM rtl_turn WHERE turn_id = ${turnId} AND attempt = $${n} FOR SHARE))`;
