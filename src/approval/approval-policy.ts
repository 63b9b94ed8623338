import { ConfigurationError } from '../core/errors.js';
import { riskOf } from '../core/tool-risk.js';
import type { ApprovalLevel, ApprovalSubject, ApprovalVerdict } from './approval-port.js';

/** The policy part of an `ApprovalManager`. Every field has a default. */
export interface ApprovalPolicy {
  /** Default 'supervised'. */
  readonly level?: ApprovalLevel;
  /**
   * More tools approved without a prompt (exact names, or `*`), on top of the default: every
   * `'read'` tool and the names in `DEFAULT_AUTO_APPROVE`.
   */
  readonly autoApprove?: readonly string[];
  /** Tools that always prompt, even when auto-approved or allowed for the session (names or `*`). */
  readonly alwaysAsk?: readonly string[];
}

/**
 * The read-only tools approved by name in `supervised` (besides every tool whose risk is
 * `'read'`). Tools that send data out (`web_fetch`, `web_search`) are not among them: reading a
 * secret and sending it away must not both pass without a prompt.
 */
export const DEFAULT_AUTO_APPROVE: readonly string[] = Object.freeze([
  'file_read',
  'glob_search',
  'content_search',
  'calculator',
  'weather',
  'tool_search',
  'memory_recall',
]);

const LEVELS: ReadonlySet<string> = new Set<ApprovalLevel>(['full', 'readonly', 'supervised']);

/** A policy resolved once: the name sets a verdict reads. */
export interface ResolvedApprovalPolicy {
  readonly level: ApprovalLevel;
  verdict(tool: ApprovalSubject, allowedForSession: ReadonlySet<string>): ApprovalVerdict;
}

/**
 * Resolves a policy: `full` approves everything; `readonly` prompts for nothing and approves
 * nothing; `supervised` checks `alwaysAsk` (prompt), then `autoApprove` (approve), then the
 * default (approve: a tool whose risk is `'read'`, or a `DEFAULT_AUTO_APPROVE` name that declares
 * no higher risk), then the asking scope's allow-list (approve), else prompts: `'egress'`, `'write'`,
 * `'exec'` and undeclared risks prompt. `alwaysAsk` matches names trimmed and case-insensitively
 * (the safe direction: more prompts); `autoApprove`, the default names and the allow-list match
 * exact names only.
 *
 * @example
 * ```ts
 * const policy = resolveApprovalPolicy({ alwaysAsk: ['shell'] });
 * policy.verdict({ name: 'lookup', risk: 'read' }, new Set());    // 'approve'
 * policy.verdict({ name: 'web_fetch', risk: 'egress' }, new Set()); // 'prompt'
 * ```
 */
export function resolveApprovalPolicy(policy: ApprovalPolicy = {}): ResolvedApprovalPolicy {
  const level = policy.level ?? 'supervised';
  if (!LEVELS.has(level)) {
    throw new ConfigurationError(`Unknown approval level '${String(level)}': use 'full', 'readonly' or 'supervised'.`);
  }
  const autoApprove = names('autoApprove', policy.autoApprove ?? [], (name) => name.trim());
  const alwaysAsk = names('alwaysAsk', policy.alwaysAsk ?? [], (name) => name.trim().toLowerCase());
  const defaults: ReadonlySet<string> = new Set(DEFAULT_AUTO_APPROVE);
  const askAll = alwaysAsk.has('*');
  const approveAll = autoApprove.has('*');
  const verdict = (tool: ApprovalSubject, allowedForSession: ReadonlySet<string>): ApprovalVerdict => {
    if (level === 'full') return 'approve';
    if (level === 'readonly') return 'allow';
    const name = tool.name;
    if (askAll || (alwaysAsk.size > 0 && alwaysAsk.has(name.trim().toLowerCase()))) return 'prompt';
    if (approveAll || autoApprove.has(name)) return 'approve';
    const risk = riskOf(tool);
    // a default name vouches for a tool that says nothing about its risk, never against a declared one
    if (risk === 'read' || (defaults.has(name) && tool.risk === undefined)) return 'approve';
    return allowedForSession.has(name) ? 'approve' : 'prompt';
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
