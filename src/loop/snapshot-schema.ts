import { z } from 'zod';
import { SnapshotMismatchError } from '../core/errors.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';

const toolCallPart = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const reasoningPart = z.object({ provider: z.string(), data: z.record(z.string(), z.unknown()) });

/** A `ChatMessage`, as a history holds it. */
export const chatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    tool_calls: z.array(toolCallPart).optional(),
    reasoning: z.array(reasoningPart).optional(),
  }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string(), isError: z.literal(true).optional() }),
]);

const args = z.record(z.string(), z.unknown());
const outcome = z.enum([
  'executed',
  'failed',
  'denied',
  'replaced',
  'hook-cancelled',
  'deduplicated',
  'interrupted',
  'unknown',
  'excluded',
  'invalid-arguments',
]);

const approvalRequest = z.object({
  requestId: z.string().min(1),
  toolName: z.string(),
  arguments: z.unknown(),
  argumentsSummary: z.string(),
  channel: z.string().optional(), // the turn's ingress.channel, optional there
  conversationId: z.string().optional(),
  turnId: z.string().optional(),
});

const slotState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('pending') }),
  z.object({
    state: z.literal('awaiting-approval'),
    request: approvalRequest,
    name: z.string(),
    args,
    signature: z.string().optional(),
    digest: z.string().optional(),
  }),
  z.object({ state: z.literal('filled'), name: z.string(), args, outcome, output: z.string(), success: z.boolean() }),
  z.object({ state: z.literal('ready'), name: z.string(), args, approved: z.boolean(), prompted: z.boolean(), argsKey: z.string().optional() }),
  z.object({
    state: z.literal('running'),
    name: z.string(),
    args,
    approved: z.boolean().optional(),
    prompted: z.boolean().optional(),
    argsKey: z.string().optional(),
  }),
  z.object({
    state: z.literal('done'),
    result: z.object({
      slot: z.number().int().nonnegative(),
      id: z.string(),
      name: z.string(),
      outcome,
      success: z.boolean(),
      content: z.string(),
      output: z.string(),
      durationMs: z.number(),
      receipt: z.string().optional(),
    }),
  }),
  z.object({
    state: z.literal('delegated'),
    name: z.string(),
    args,
    approved: z.boolean(),
    prompted: z.boolean(),
    argsKey: z.string().optional(),
    // the parked sub-agent's own snapshot, of the same shape
    child: z.lazy((): z.ZodType<unknown> => turnSnapshotSchema),
  }),
]);

const parsedCall = z.object({
  slot: z.number().int().nonnegative(),
  id: z.string(),
  name: z.string(),
  args,
  rawArguments: z.string(),
  argsError: z.string().optional(),
});

const count = z.number().int().nonnegative();

/**
 * The shape of a `TurnSnapshot` (version 1), checked when a turn parks and when a snapshot is
 * loaded to resume it (`snapshotShape`): a snapshot that does not match is refused before anything
 * runs. The ingress's optional fields (`channel`, `replyTarget`) are optional here too.
 *
 * @example
 * ```ts
 * const checked = turnSnapshotSchema.safeParse(JSON.parse(stored));
 * ```
 */
export const turnSnapshotSchema = z.object({
  version: z.number(),
  agent: z.string(),
  turnId: z.string().min(1),
  conversationId: z.string().optional(),
  ingress: z.looseObject({ channel: z.string().optional(), replyTarget: z.string().optional(), turnId: z.string(), agentAlias: z.string() }),
  scope: z.object({ message: z.string(), tools: z.array(z.string()).optional() }),
  history: z.array(chatMessage),
  iteration: count,
  model: z.string().min(1),
  malformedRetries: count,
  notes: z.array(z.string()),
  receipts: z.array(z.string()),
  promptSignatures: z.record(z.string(), z.object({ iteration: count, approved: z.boolean() })),
  loopWindow: z.object({
    names: z.array(z.string()),
    argsJson: z.array(z.string()),
    outputs: z.array(z.string()),
    batches: z.array(count),
    start: count,
    batch: count,
  }),
  activated: z.array(z.string()),
  steering: z.array(z.string()),
  usage: z.object({ inputTokens: count, outputTokens: count }),
  output: z.object({ fingerprint: z.string(), retries: count }).optional(),
  batch: z
    .object({
      text: z.string(),
      fromText: z.boolean(),
      calls: z.array(parsedCall),
      reasoning: z.array(reasoningPart).optional(),
      slots: z.array(slotState),
      promptedInBatch: z.array(z.string()),
      toolSchemas: z.record(z.string(), z.string()),
      offered: z.array(z.string()).optional(),
    })
    .optional(),
  seal: z.object({ sequence: z.number().int().positive(), nonce: z.string(), mac: z.string() }).optional(),
});

/**
 * A snapshot checked against `turnSnapshotSchema`, the one check that parking and resuming share
 * (a turn parks only with a snapshot that resumes); a `SnapshotMismatchError` naming every
 * problem otherwise.
 *
 * @example
 * ```ts
 * const snapshot = snapshotShape(JSON.parse(stored));
 * ```
 */
export function snapshotShape(input: unknown): TurnSnapshot {
  const parsed = turnSnapshotSchema.safeParse(input);
  if (!parsed.success) throw new SnapshotMismatchError(`Malformed turn snapshot: ${parsed.error.issues.map(describeIssue).join('; ')}.`);
  return parsed.data as TurnSnapshot;
}

const describeIssue = (issue: { readonly path: readonly PropertyKey[]; readonly message: string }): string =>
  `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`;
