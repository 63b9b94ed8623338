import type { ConversationScope } from '../core/conversation-scope.js';
import { scopedApproval } from '../approval/scoped-approval.js';
import type { ResolvedAgentExecution, TurnContext } from '../context/resolved-execution.js';
import { TOOL_SEARCH, type Tool } from '../core/tool.js';
import type { ParentCall } from '../execute/parent-call.js';
import { buildPrepSteps } from '../prep/build-prep-steps.js';
import { ActivatedToolSet } from '../registry/activated-tool-set.js';
import type { ActivationScopes } from '../registry/activation-store.js';
import { toolSelector } from '../registry/tool-selector.js';

/**
 * The resolved execution a sub-agent's turn runs with inside a call of its parent's turn: the
 * sub-agent's own, with
 * - the tools the parent granted (`grantedTools`) added to the activated set of this turn only,
 *   where the sub-agent's risk profile, exclusions and filter groups still decide each one: the
 *   set its specs are built from is the set its calls resolve from, so it never advertises a tool
 *   it cannot run;
 * - the parent's approval port (policy, front door, allow-lists, audit log) in place of its own,
 *   asked as the parent's turn (`scopedApproval`): an `always` counts in the parent's conversation;
 * - the preparation steps any granted tool may need (approval markers, channel arguments).
 * Without a parent, a grant or an approval port to take, the sub-agent's own.
 *
 * @example
 * ```ts
 * const parent = parentCallOf(ctx);
 * const resolved = delegatedExecution(child.resolved, parent, grantedTools(parent, undefined));
 * runToolLoop(resolved, { message, signal: ctx.signal, conversationId: ctx.conversationId });
 * ```
 */
export function delegatedExecution(child: ResolvedAgentExecution, parent: ParentCall | undefined, granted: readonly Tool[]): ResolvedAgentExecution {
  const parentApproval = parent?.turn.resolved.approval;
  if (parentApproval === undefined && granted.length === 0) return child;
  const approval = parentApproval ? scopedApproval(parentApproval, scopeOf(parent!.turn)) : child.approval;
  return {
    ...child,
    approval,
    activations: granted.length > 0 ? withGranted(child.activations, granted) : child.activations,
    // tools of the parent's may need the marker and channel steps the sub-agent's own did not
    prepSteps: buildPrepSteps({ hooks: child.hooks, approval, knobs: { dedupEnabled: child.knobs.dedupEnabled } }),
  };
}

/**
 * The tools of the parent's turn its sub-agent may use: those the turn can run now (`turn.tools`
 * resolves them) that `grant` selects (names, globs, `bundle:{name}` of the parent's bundles) —
 * without `grant`, the deferred tools activated in the turn (its activated set). Never
 * `tool_search` (it activates into the parent's set) nor the delegating tool itself.
 *
 * @example
 * ```ts
 * grantedTools(parentCallOf(ctx), ['github__*']);
 * ```
 */
export function grantedTools(parent: ParentCall | undefined, grant: readonly string[] | undefined): readonly Tool[] {
  if (parent === undefined || grant?.length === 0) return [];
  const { tools, activated } = parent.turn;
  const selects = grant === undefined ? undefined : toolSelector(grant, parent.turn.resolved.toolScope.bundles);
  const pool = selects === undefined ? activated.tools() : tools.names.map((name) => tools.get(name));
  const granted: Tool[] = [];
  for (const tool of pool) {
    if (tool === undefined || tool.name === TOOL_SEARCH || tool.name === parent.toolName) continue;
    // what the parent's turn resolves under that name: an activated tool it hides or excludes is not its to lend
    if (tools.get(tool.name) !== tool) continue;
    if (selects === undefined || selects(tool)) granted.push(tool);
  }
  return granted;
}

/** The scope a sub-agent's approvals count in: the parent's conversation, else the parent's turn. */
const scopeOf = (turn: TurnContext) => (turn.conversationId !== undefined ? { conversationId: turn.conversationId } : { turnId: turn.turnId });

/**
 * Each scope's activated set, copied with the granted tools added, for the turn that asks (its
 * own activations win a name): a grant never outlives the call, and what the sub-agent activates
 * in a delegated turn stays in that turn.
 */
function withGranted(own: ActivationScopes, granted: readonly Tool[]): ActivationScopes {
  return Object.freeze({ forScope: (scope: ConversationScope) => new ActivatedToolSet([...granted, ...own.forScope(scope).tools()]) });
}
