import type { Tracer } from '@opentelemetry/api';
import type { ToolObserver } from '../observe/events.js';
import type { Logger } from '../observe/logger.js';
import type { TelemetryOptions } from '../observe/instrument-run.js';
import type { AgentHooks } from '../prep/hooks.js';
import type { PrepStep } from '../prep/prep-step.js';
import type { ModelProvider } from '../provider/provider.js';
import type { ActivatedToolSet } from '../registry/activated-tool-set.js';
import type { AgentToolScope } from '../registry/agent-tool-scope.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ReceiptGenerator } from '../results/receipts.js';
import type { ApprovalPort } from '../approval/approval-port.js';
import type { Clock } from './clock.js';
import type { Knobs } from './knobs.js';

/**
 * The stable per-agent bundle a turn runs with: built once by `createAgent`, shared by every
 * turn of the agent. Per-message state (history, signal, steering) lives in the turn instead.
 */
export interface ResolvedAgentExecution {
  /** The agent's alias (span names, observer correlation). */
  readonly name: string;
  readonly provider: ModelProvider;
  readonly model: string;
  readonly instructions?: string;
  readonly temperature?: number;
  readonly registry: ToolRegistry;
  /** Excluded tool names, trimmed and lowercased. */
  readonly excluded: ReadonlySet<string>;
  /** The tool assembly (bundles, risk profile, deferred tools, filter groups), resolved once. */
  readonly toolScope: AgentToolScope;
  /** Deferred tools activated so far; persists across this agent's iterations and turns. */
  readonly activated: ActivatedToolSet;
  readonly approval?: ApprovalPort;
  readonly hooks: AgentHooks;
  readonly observers: readonly ToolObserver[];
  readonly knobs: Knobs;
  readonly receipts?: ReceiptGenerator;
  readonly logger: Logger;
  readonly tracer?: Tracer;
  /** Opt-in span content capture. */
  readonly telemetry?: TelemetryOptions;
  readonly clock: Clock;
  readonly ids: () => string;
  /** The preparation pipeline (hooks, defaults, markers, guards, approval), built once. */
  readonly prepSteps: readonly PrepStep[];
  readonly onModelSwitch?: (from: string, to: string) => void;
}
