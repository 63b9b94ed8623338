import { z } from 'zod';
import { TurnInputError } from '../core/errors.js';
import type { TurnInput } from '../core/turn-input.js';
import { chatMessage } from './snapshot-schema.js';

const optionalText = z.string().optional();

/** The data of a `TurnInput` (its signal, steering and journal are checked where they are used). */
const turnInputSchema = z.looseObject({
  message: z.string(),
  history: z.array(chatMessage).optional(),
  memory: z.array(z.string()).optional(),
  conversationId: optionalText,
  tools: z.array(z.string()).optional(),
  ingress: z
    .looseObject({ channel: optionalText, replyTarget: optionalText, turnId: optionalText, agentAlias: optionalText, parentAgentAlias: optionalText })
    .optional(),
});

/**
 * Checks a turn's input before anything of it runs: a message that is not text, a history that
 * is not an array of chat messages, tools or memory that are not arrays of text, or an ingress
 * whose fields are not text throw a `TurnInputError` naming each problem (in the turn's
 * Observable, as its error), never a turn with a history no provider accepts.
 *
 * @example
 * ```ts
 * checkTurnInput({ message: 42 } as never); // throws TurnInputError: message: expected string …
 * ```
 */
export function checkTurnInput(input: TurnInput): void {
  let problems: string;
  try {
    const parsed = turnInputSchema.safeParse(input);
    if (parsed.success) return;
    problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`).join('; ');
  } catch {
    problems = 'it could not be read';
  }
  throw new TurnInputError(`Invalid turn input: ${problems}.`);
}
