import type { Observable } from 'rxjs';
import type { Ingress } from './ingress.js';

/** What a tool returns: success flag, model-visible output, optional error and structured data. */
export interface ToolResult {
  readonly success: boolean;
  readonly output: string;
  readonly error?: string;
  readonly data?: unknown;
}

/** A tool's return value: a string or a ToolResult, directly or as a Promise or Observable of one. */
export type ToolReturn =
  | ToolResult
  | string
  | PromiseLike<ToolResult | string>
  | Observable<ToolResult | string>;

/** Passed to `execute`. `signal` aborts on cancellation and on timeout. */
export interface ToolContext {
  readonly signal: AbortSignal;
  readonly callId: string;
  readonly ingress: Ingress;
  /**
   * The turn's conversation (`TurnInput.conversationId`), if any: pass it to a sub-agent's turn
   * so an `ActivationStore` or `ApprovalManager` shared with it scopes its state the same way.
   */
  readonly conversationId?: string;
  /** Switches the turn's model: the next provider request uses it and `onModelSwitch` is told. */
  switchModel(model: string): void;
}

/** Where a tool comes from (built-in, an MCP server, a plugin), for audit and telemetry. */
export interface ToolAttribution {
  readonly source: 'builtin' | 'mcp' | 'plugin' | (string & {});
  readonly server?: string;
  readonly originalName?: string;
}

/** JSON Schema object (input side). Frozen and shared by every spec built from the tool. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The provider-facing description of a tool. Built once per tool and frozen. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

/** The OpenAI Chat Completions `tools` entry for a spec. Built once per tool and frozen. */
export interface OpenAIToolSpec {
  readonly type: 'function';
  readonly function: ToolSpec;
}

/** Argument validation: the parsed value, or a model-visible message saying what is wrong. */
export type ArgsCheck<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly message: string };

/**
 * How risky a tool is, lowest first: `read` (only looks), `egress` (sends data out: web fetch,
 * search, messages), `write` (changes state), `exec` (runs code or destroys). A tool that declares
 * no risk counts as `write` (see `riskOf`). The old `'network'` level is now `'egress'`.
 */
export type ToolRisk = 'read' | 'egress' | 'write' | 'exec';

/** A tool the loop can advertise and run. Build one with `defineTool` (or `mcpTools`). */
export interface Tool<A = any> {
  readonly name: string;
  readonly description: string;
  readonly spec: ToolSpec;
  readonly openAI: OpenAIToolSpec;
  /** Declared risk; none counts as `'write'` for approval and risk profiles (they fail closed). */
  readonly risk?: ToolRisk;
  /** The tool takes an `approved` argument that only an approval can set to true. */
  readonly approvalMarker: boolean;
  /** Name of the argument that defaults to the turn's channel. */
  readonly channelArg?: string;
  readonly dedupExempt: boolean;
  readonly timeoutMs?: number;
  /** Runs again after a crash mid-call instead of closing `interrupted` (durable turns). */
  readonly idempotent?: boolean;
  readonly attribution: ToolAttribution;
  /** Validates model-supplied arguments against the tool's schema. */
  check(args: unknown): ArgsCheck<A>;
  execute(args: A, ctx: ToolContext): ToolReturn;
}

/** The built-in tool that activates deferred tools; a batch containing it never runs in parallel. */
export const TOOL_SEARCH = 'tool_search';
