import { concat, concatMap, defer, from, ignoreElements, type Observable, of, throwError } from 'rxjs';
import type { ApprovalRequest } from '../core/approval-request.js';
import { ConfigurationError } from '../core/errors.js';
import type { TurnEvent } from '../core/events.js';
import { DENIED_BY_USER_TEXT, POLICY_DENIAL_TEXT } from '../approval/approval-texts.js';
import type { ApprovalAnswer, ApprovalDecision, ApprovalPort } from '../approval/approval-port.js';
import { summarizeArgs } from '../approval/summarize-args.js';
import { scrubCredentials } from '../results/scrub.js';
import { scrubValue } from '../results/scrub-value.js';
import { texts, type PreparedCall } from '../core/calls.js';
import type { PrepContext, PrepGate } from '../context/resolved-execution.js';
import { prepGate } from './prep-gate.js';
import { turnScope } from './turn-scope.js';
import { APPROVED } from './with-approved-marker.js';

/**
 * Asks the agent's approval manager about a resolved, valid call. Policy may approve it, let it
 * run unapproved (`readonly`), or require a prompt: then an `approval-request` event goes out
 * (the argument summary and the full arguments, credential-shaped values masked),
 * the front door is asked, and an `approval-decision` event follows. Yes/always → the call runs
 * (approved); no → `denied` (`Denied by user.`); a replacement → `replaced` (`success: true`, the
 * operator's sanitized text); nobody answered → `denied` by policy. Verdict and request carry
 * the turn's scope (conversation, else turn), so an `always` counts only there. A prompted call is marked
 * `prompted` (its batch runs sequentially). Withdrawn by the turn's signal, the prompt records
 * no decision. No approval manager = no gate. A durable turn's journal records each decision
 * with the tool's real name before its `approval-decision` event (whose name is scrubbed) goes out.
 *
 * ```
 * calls:    a-------         a needs a prompt
 * operator: ---y|
 * result:   ---a             a approved, prompted
 * ```
 * @example
 * ```ts
 * from(calls).pipe(prepareCalls(resolved, turn, [resolveTool, validateArgs, approvalGate]));
 * ```
 */
export const approvalGate: PrepGate = prepGate((call, ctx) => {
  const approval = ctx.resolved.approval;
  const tool = call.tool;
  if (!approval || !tool || call.filled) return of(call);
  const verdict = approval.verdict(tool, turnScope(ctx));
  if (verdict === 'approve') {
    if (tool.approvalMarker) ctx.approved.add(call.slot); // only the marker step reads it
    return of(call);
  }
  if (verdict === 'allow') return of(call);
  return prompt(approval, { ...call, prompted: true }, ctx);
});

function prompt(approval: ApprovalPort, call: PreparedCall, ctx: PrepContext): Observable<PreparedCall | TurnEvent> {
  const { resolved, turn } = ctx;
  const toolName = call.tool!.name;
  return defer(() => {
    const requestId = resolved.ids();
    const argumentsSummary = summarizeArgs(call.args, call.tool!.approvalMarker ? APPROVED : undefined);
    const request: ApprovalRequest = { requestId, toolName, arguments: call.args, argumentsSummary, channel: turn.ingress.channel, ...turnScope(ctx) };
    // events are rendered (a card, a log): the name and the arguments scrubbed, the arguments
    // whole (no tool-call event has shown them yet); the request keeps both real
    const asked: TurnEvent = {
      type: 'approval-request',
      requestId,
      toolName: scrubCredentials(toolName),
      argumentsSummary,
      arguments: scrubValue(call.args),
    };
    // the request event, then the decision event and the settled call (or the call, parked)
    return concat(of(asked), decided(approval, call, request, ctx));
  });
}

/**
 * Settles a call that waits for a decision: the answer given when the turn parked at it
 * (`agent.resume`) goes through the approval manager like a front door's (audit log, allow-list),
 * then the decision event and the settled call follow, as for an answer that came at once.
 *
 * @example
 * ```ts
 * resumeApproval(call, request, { value: 'yes', decidedBy: 'console' }, ctx).subscribe();
 * ```
 */
export function resumeApproval(
  call: PreparedCall,
  request: ApprovalRequest,
  answer: { readonly value: ApprovalAnswer; readonly decidedBy: string },
  ctx: PrepContext,
): Observable<PreparedCall | TurnEvent> {
  const approval = ctx.resolved.approval;
  if (!approval) return throwError(() => new ConfigurationError('A parked approval can only be resumed by an agent with an approval manager.'));
  // the resumed turn's scope, not the stored request's: an `always` lands in this conversation
  const { conversationId: _c, turnId: _t, ...asked } = request;
  return decided(approval, call, { ...asked, ...turnScope(ctx) }, ctx, answer);
}

function decided(
  approval: ApprovalPort,
  call: PreparedCall,
  request: ApprovalRequest,
  ctx: PrepContext,
  answer?: { readonly value: ApprovalAnswer; readonly decidedBy: string },
): Observable<PreparedCall | TurnEvent> {
  const { resolved } = ctx;
  const { requestId, toolName } = request;
  const journal = ctx.turn.journal;
  return approval.decide(request, { now: () => resolved.clock.now(), answer }).pipe(
    concatMap((decision) => {
      if (decision.decision === 'pause') return of({ ...call, paused: request }); // parked: no decision yet
      if (decision.error !== undefined) {
        resolved.logger.warn({ err: decision.error, tool: toolName, requestId }, 'approval front door failed; denied by policy');
      }
      const event: TurnEvent = {
        type: 'approval-decision',
        requestId,
        toolName: scrubCredentials(toolName),
        decision: decision.decision,
        decidedBy: decision.decidedBy,
        byOperator: decision.byOperator,
      };
      const settled: Observable<PreparedCall | TurnEvent> = of(event, settle(call, decision, ctx));
      const record = journal?.decided;
      if (record === undefined) return settled;
      // the journal (a durable store's audit log and allow-list) records the request's real name
      const recorded = { decision: decision.decision, decidedBy: decision.decidedBy, byOperator: decision.byOperator };
      return concat(defer(() => from(record.call(journal, request, recorded))).pipe(ignoreElements()), settled);
    }),
  );
}

function settle(call: PreparedCall, decision: ApprovalDecision, ctx: PrepContext): PreparedCall {
  switch (decision.decision) {
    case 'yes':
    case 'always': {
      ctx.approved.add(call.slot);
      const signature = ctx.promptSignatureBySlot.get(call.slot);
      if (signature !== undefined) ctx.iteration.promptSignatures.set(signature, { iteration: ctx.iteration.iteration, approved: true });
      return call;
    }
    case 'replace':
      return { ...call, filled: { outcome: 'replaced', output: decision.replacement || texts.noOutput, success: true } };
    default:
      return {
        ...call,
        filled: { outcome: 'denied', output: decision.byOperator ? DENIED_BY_USER_TEXT : POLICY_DENIAL_TEXT, success: false },
      };
  }
}
