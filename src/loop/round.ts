import type { ParsedCall } from '../core/calls.js';

/** The calls of one response, as the history round will show them. */
export interface Round {
  /** The assistant text of the response. */
  readonly text: string;
  /** The calls came from model text (text protocol). */
  readonly fromText: boolean;
  readonly calls: readonly ParsedCall[];
}
