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

