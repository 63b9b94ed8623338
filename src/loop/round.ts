import type { ParsedCall } from '../core/calls.js';
import type { ReasoningPart } from '../core/messages.js';

/** The calls of one response, as the history round will show them. */
export interface Round {
  /** The assistant text of the response. */
  readonly text: string;
  /** The calls came from model text (text protocol). */
  readonly fromText: boolean;
  readonly calls: readonly ParsedCall[];
  /** What the provider needs back with the assistant message (`ModelResponse.reasoning`). */
  readonly reasoning?: readonly ReasoningPart[];
}
