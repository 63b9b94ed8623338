/** Where a turn came from: the channel, reply target and agent aliases used for correlation. */
export interface Ingress {
  readonly channel: string;
  readonly replyTarget?: string;
  readonly agentAlias?: string;
  readonly parentAgentAlias?: string;
  readonly turnId?: string;
}

/** An ingress with the turn's id and agent alias settled. */
export type TurnIngress = Ingress & { readonly turnId: string; readonly agentAlias: string };

/**
 * The turn's ingress: the input's (default channel `cli`) with its `turnId` (else a new id) and
 * `agentAlias` (else the agent's name). Idempotent, so telemetry can settle it before the turn
 * starts and the turn keeps the same id.
 *
 * @example
 * ```ts
 * const { turnId } = turnIngress(resolved, input);
 * ```
 */
export function turnIngress(resolved: { readonly name: string; readonly ids: () => string }, input: { readonly ingress?: Ingress }): TurnIngress {
  const ingress = input.ingress ?? { channel: 'cli' };
  return { ...ingress, turnId: ingress.turnId ?? resolved.ids(), agentAlias: ingress.agentAlias ?? resolved.name };
}
