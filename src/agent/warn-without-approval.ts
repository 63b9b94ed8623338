import { riskOf } from '../core/tool-risk.js';
import type { Tool } from '../core/tool.js';
import type { Logger } from '../observe/logger.js';
import { exclusionKey, type AgentToolScope } from '../registry/agent-tool-scope.js';

/** How many tools the message names (the `tools` field has them all). */
const SHOWN = 10;

/**
 * For an agent built without an approval policy: logs one warning (on the agent's logger) that
 * names the tools able to change or send something — risk `'exec'`, `'write'` or `'egress'`,
 * and any tool that declares no risk (it counts as `'write'`) — since every call to them runs
 * without anyone being asked. The agent's static and deferred tools count, those its risk
 * profile or `excludedTools` remove do not. The message names the first ten; the `tools` field
 * has them all. Nothing is logged when every tool is `'read'`.
 *
 * @example
 * ```ts
 * warnWithoutApproval('agent', toolScope, logger);
 * // warn { agent: 'agent', tools: ['shell (exec)', 'web_fetch (egress)'] } 'no approval policy: …'
 * ```
 */
export function warnWithoutApproval(agent: string, scope: AgentToolScope, logger: Logger): void {
  const risky: string[] = [];
  const look = (tools: readonly Tool[]): void => {
    for (const tool of tools) {
      const risk = riskOf(tool);
      if (risk !== 'read' && !scope.excluded.has(exclusionKey(tool.name))) risky.push(`${tool.name} (${risk})`);
    }
  };
  look(scope.admitted);
  look(scope.deferred);
  if (risky.length === 0) return;
  const named = risky.length > SHOWN ? `${risky.slice(0, SHOWN).join(', ')} and ${risky.length - SHOWN} more` : risky.join(', ');
  logger.warn({ agent, tools: risky }, `no approval policy: these tools run code, write or send data out without a prompt: ${named}`);
}
