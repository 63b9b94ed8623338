import { ConfigurationError } from '../core/errors.js';
import type { ApprovalLevel, ApprovalVerdict } from './approval-port.js';

/** The policy part of an `ApprovalManager`. Every field has a default. */
export interface ApprovalPolicy {
  /** Default 'supervised'. */
  readonly level?: ApprovalLevel;
  /** Tools approved without a prompt (exact names, or `*`). Default: `DEFAULT_AUTO_APPROVE`. */
  readonly autoApprove?: readonly string[];
  /** Tools that always prompt, even when auto-approved or allowed for the session (names or `*`). */
  readonly alwaysAsk?: readonly string[];
}

/** The read-only tools approved without a prompt when `autoApprove` is not given. */
export const DEFAULT_AUTO_APPROVE: readonly string[] = Object.freeze([
  'file_read',
  'glob_search',
  'content_search',
  'web_search',
  'web_fetch',
  'calculator',
  'weather',
  'tool_search',
  'memory_recall',
]);

const LEVELS: ReadonlySet<string> = new Set<ApprovalLevel>(['full', 'readonly', 'supervised']);

/** A policy resolved once: the name sets a verdict reads. */
export interface ResolvedApprovalPolicy {
  readonly level: ApprovalLevel;
  verdict(toolName: string, allowedForSession: ReadonlySet<string>): ApprovalVerdict;
}

/**
 * Resolves a policy: `full` approves everything; `readonly` prompts for nothing and approves
 * nothing; `supervised` checks `alwaysAsk` (prompt), then `autoApprove` (approve), then the session
 * allow-list (approve), else prompts. `alwaysAsk` matches names trimmed and case-insensitively (the
 * safe direction: more prompts); `autoApprove` and the allow-list match exact names only.
 *
 * @example
 * ```ts
 * resolveApprovalPolicy({ alwaysAsk: ['shell'] }).verdict('shell', new Set()); // 'prompt'
 * ```
 */
export function resolveApprovalPolicy(policy: ApprovalPolicy = {}): ResolvedApprovalPolicy {
  const level = policy.level ?? 'supervised';
  if (!LEVELS.has(level)) {
    throw new ConfigurationError(`Unknown approval level '${String(level)}': use 'full', 'readonly' or 'supervised'.`);
  }
  const autoApprove = names('autoApprove', policy.autoApprove ?? DEFAULT_AUTO_APPROVE, (name) => name.trim());
  const alwaysAsk = names('alwaysAsk', policy.alwaysAsk ?? [], (name) => name.trim().toLowerCase());
  const askAll = alwaysAsk.has('*');
  const approveAll = autoApprove.has('*');
  const verdict = (toolName: string, allowedForSession: ReadonlySet<string>): ApprovalVerdict => {
    if (level === 'full') return 'approve';
    if (level === 'readonly') return 'allow';
    if (askAll || (alwaysAsk.size > 0 && alwaysAsk.has(toolName.trim().toLowerCase()))) return 'prompt';
    if (approveAll || autoApprove.has(toolName) || allowedForSession.has(toolName)) return 'approve';
    return 'prompt';
  };
  return Object.freeze({ level, verdict });
}

function names(field: string, list: readonly string[], key: (name: string) => string): ReadonlySet<string> {
  if (!Array.isArray(list)) throw new ConfigurationError(`Approval policy '${field}' must be a list of tool names.`);
  const out = new Set<string>();
  for (const name of list) {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new ConfigurationError(`Approval policy '${field}' must contain only non-empty tool names.`);
    }
    out.add(key(name));
  }
  return out;
}
