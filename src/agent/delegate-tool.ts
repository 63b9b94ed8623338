import { concatWith, defer, EMPTY, filter, finalize, map, NEVER, type Observable, tap } from 'rxjs';
import { z } from 'zod';
import { abortOnUnsubscribe } from '../core/abort-on-unsubscribe.js';
import { fromAbortSignal } from '../core/from-abort-signal.js';
import type { Ingress } from '../core/ingress.js';
import type { Tool, ToolContext, ToolResult, ToolRisk } from '../core/tool.js';
import type { TurnEvent } from '../core/events.js';
import type { ResolvedAgentExecution } from '../context/resolved-execution.js';
import { NO_ITEMS } from '../core/no-items.js';
import type { TurnJournal } from '../core/turn-journal.js';
import { parentCallOf, type ParentCall } from '../execute/parent-call.js';
import { resumeTurn } from '../loop/resume-turn.js';
import { runToolLoop } from '../loop/run-tool-loop.js';
import { defineTool } from '../tool/define-tool.js';
import type { Agent } from './create-agent.js';
import { delegatedExecution, grantedTools } from './delegated-execution.js';
import { instrumentRun } from './instrument-run.js';

const TASK = z.object({ task: z.string().describe('What the sub-agent should do, in full: it sees nothing else of this conversation.') });

/** Options of `delegateTool`. */
export interface DelegateToolOptions<S extends z.ZodType = typeof TASK> {
  /** The sub-agent whose turn the call runs. */
  readonly agent: Agent;
  readonly name: string;
  readonly description: string;
  /** The call's arguments (a zod object schema). Default `{ task: string }`. */
  readonly parameters?: S;
  /** The sub-agent's message for the call's arguments. Default: `task`, else the arguments as JSON. */
  readonly message?: (args: z.output<S>) => string;
  /**
   * Which of the calling turn's tools the sub-agent may use beside its own: names, globs
   * (`github__*`) or `bundle:{name}`, matched against the tools that turn can run at the time of
   * the call. Default: the deferred tools activated in the calling turn. `[]`: none.
   */
  readonly grant?: readonly string[];
  /** The call's own risk, for the parent's approval gate (the sub-agent's calls are gated on their own). */
  readonly risk?: ToolRisk;
  readonly timeoutMs?: number;
}

/**
 * A tool whose call runs a turn of another agent (a sub-agent) with the call's input as its
 * message and answers with the sub-agent's final text; a turn that fails makes the call fail.
 * Inside a turn of the loop, the sub-agent's turn
 * - sees its own tools and the tools the parent granted (`grant`) that its executor can run,
 *   and no other: it never advertises or calls a tool it cannot resolve;
 * - shows its events in the parent's stream, nested under the call (`delegate` events);
 * - is cancelled with the parent's turn: its finished calls keep their results, the unfinished
 *   ones end `interrupted`, and the call itself `interrupted`;
 * - asks the parent's approval port (its front door), an `always` counting in the parent's
 *   conversation; without one, its own;
 * - adds its token usage to the parent's `done.usage`;
 * - parks with the parent: a sub-agent's turn that parks at an approval (`pauseForApproval()`)
 *   parks the parent's turn, whose `pending` are the sub-agent's requests; resuming the parent
 *   with the decisions resumes both. A parent resumed in another process needs the sub-agent to
 *   seal its snapshots with a shared `snapshotKey` too.
 *
 * ```
 * parent:  c-(ddd)-r      c: tool-call, d: the sub-agent's events (delegate), r: tool-result
 * ```
 * @example
 * ```ts
 * const researcher = createAgent({ name: 'researcher', provider, model: 'gpt-4o-mini', tools: [webSearch] });
 * const research = delegateTool({ agent: researcher, name: 'research', description: 'Researches a question on the web.' });
 * const lead = createAgent({ provider, model: 'gpt-4o', tools: [research], approval });
 * ```
 * @param options The sub-agent, the tool's name and description, its parameters and grant.
 * @return The tool.
 */
export function delegateTool<S extends z.ZodType = typeof TASK>(options: DelegateToolOptions<S>): Tool<z.output<S>> {
  const { agent, grant } = options;
  const parameters = (options.parameters ?? TASK) as S;
  const message = options.message ?? defaultMessage;
  return defineTool({
    name: options.name,
    description: options.description,
    parameters,
    risk: options.risk,
    timeoutMs: options.timeoutMs,
    execute: (args, ctx) => delegatedTurn(agent, message(args), ctx, grant),
  });
}

const defaultMessage = (args: unknown): string => {
  const task = (args as { task?: unknown } | null)?.task;
  return typeof task === 'string' ? task : JSON.stringify(args);
};

/**
 * The sub-agent's turn as the call's answer: its events nested into the parent's stream, its
 * `done` the answer. Its signal aborts when the call's does, when the parent's turn is cancelled
 * (before the call is cut: its closing events still go out) and when the call is torn down
 * (`abortOnUnsubscribe`: abort first, teardown after). A call cut with its parent's turn answers
 * nothing, and does not complete either (a call that completes empty answers '(no output)').
 */
function delegatedTurn(agent: Agent, message: string, ctx: ToolContext, grant: readonly string[] | undefined): Observable<ToolResult> {
  return defer(() => {
    const parent = parentCallOf(ctx);
    const resolved = delegatedExecution(agent.resolved, parent, grantedTools(parent, grant));
    const cancelled = new AbortController();
    let cut = false;
    const unhook = parent?.onCancel(() => {
      cut = true;
      cancelled.abort();
    });
    const answerOf = (event: TurnEvent): ToolResult | undefined => {
      if (event.type !== 'done') return undefined;
      // cancelled with the parent's turn: the call ends interrupted, as any running call does
      if (event.reason === 'cancelled') return cut ? undefined : { success: false, output: '', error: `The sub-agent '${resolved.name}' was cancelled.` };
      // parked at an approval: the parent's turn parks with it, and resumes it when it resumes
      if (event.reason === 'paused' && parent?.park({ snapshot: event.snapshot!, pending: event.pending ?? [] })) return undefined;
      if (event.reason === 'paused') return { success: false, output: '', error: `The sub-agent '${resolved.name}' stopped at an approval that cannot be answered here.` };
      return { success: true, output: event.text };
    };
    // the call's signal (its deadline, its slot closing) aborts the sub-agent's turn at once, as the parent's cancel does
    const follow = fromAbortSignal(ctx.signal).subscribe(() => cancelled.abort());
    // nested inside the run: the closing events an abort makes while the call is torn down still reach the parent
    const nested = (signal: AbortSignal): Observable<TurnEvent> =>
      childTurn(resolved, message, ctx, signal, parent).pipe(tap((event) => event.type !== 'done' && parent?.nest(resolved.name, event)));
    return abortOnUnsubscribe(cancelled.signal, nested).pipe(
      map(answerOf),
      filter((answer): answer is ToolResult => answer !== undefined),
      concatWith(defer(() => (cut ? NEVER : EMPTY))),
      finalize(() => {
        unhook?.();
        follow.unsubscribe();
      }),
    );
  });
}

/**
 * The sub-agent's turn: a new one with the call's message, or the parked one the parent's resumed
 * turn resumes. A durable parent's journal records the sub-agent's approval decisions too (its
 * store's audit log and allow-list); nothing else of the sub-agent's turn is journaled: it lives
 * in the parent's snapshot when it parks, and a crash mid-call closes the call `interrupted`.
 */
function childTurn(resolved: ResolvedAgentExecution, message: string, ctx: ToolContext, signal: AbortSignal, parent: ParentCall | undefined): Observable<TurnEvent> {
  const { conversationId } = ctx;
  const parentJournal = parent?.turn.journal;
  const journal = parentJournal?.decided ? decisionsOnly(parentJournal, parentJournal.decided) : undefined;
  const resumed = parent?.resumed();
  if (resumed === undefined) return instrumentRun(resolved, { message, signal, conversationId, ingress: childIngress(ctx.ingress), journal }, runToolLoop);
  const { snapshot, decisions, decidedBy } = resumed;
  const options = { decisions, decidedBy, signal, conversationId: conversationId ?? null, journal };
  return instrumentRun(resolved, { message: '', ingress: snapshot.ingress, conversationId }, (r) => resumeTurn(r, snapshot, options));
}

/** A journal that records only approval decisions, in `journal`. */
function decisionsOnly(journal: TurnJournal, decided: NonNullable<TurnJournal['decided']>): TurnJournal {
  return {
    prepared: () => NO_ITEMS,
    started: () => NO_ITEMS,
    finished: () => NO_ITEMS,
    decided: (request, decision) => decided.call(journal, request, decision),
  };
}

/** The sub-agent's ingress: the parent's channel and reply target, the parent's alias as its parent. */
function childIngress(parent: Ingress): Ingress {
  const ingress: { -readonly [K in keyof Ingress]: Ingress[K] } = { channel: parent.channel };
  if (parent.replyTarget !== undefined) ingress.replyTarget = parent.replyTarget;
  if (parent.agentAlias !== undefined) ingress.parentAgentAlias = parent.agentAlias;
  return ingress;
}
