import { Observable } from 'rxjs';
import { z } from 'zod';
import type * as Lib from '../../../src/index.js';
import type { ModelProvider, ProviderEvent, Tool, ToolObserver } from '../../../src/index.js';
import type * as Testing from '../../../src/testing/index.js';
import { buildOurs } from '../build-ours.js';
import {
  argsSchema,
  cancelledTurnCalls,
  FINAL_TEXT,
  noop,
  scriptedCalls,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  type PreparedSystem,
  type ScriptedCall,
  type System,
} from '../workload.js';

/** The library as built for the bench (see build-ours.ts), or straight from src/ with `fromSource`. */
export interface OursLib {
  readonly lib: typeof Lib;
  readonly testing: typeof Testing;
  readonly from: string;
}

/**
 * Builds and loads the library (from `srcDir`, default src/); `fromSource` loads src/ through
 * tsx instead (no build, but tsx's transform slows the code down).
 */
export async function loadOurs(fromSource = false, srcDir?: string, outDir?: string): Promise<OursLib> {
  if (fromSource) {
    return { lib: await import('../../../src/index.js'), testing: await import('../../../src/testing/index.js'), from: 'src/ via tsx' };
  }
  const urls = await buildOurs(srcDir, outDir);
  const from = srcDir ? `tsup build of ${srcDir}` : 'tsup build of src/';
  return { lib: (await import(urls.index)) as typeof Lib, testing: (await import(urls.testing)) as typeof Testing, from };
}

/** Options of our system's variants. */
export interface OursOptions {
  readonly label: string;
  /** `maxParallelTools`; the default cap is 8. */
  readonly maxParallelTools: number;
  /** Sign every execution with an HMAC receipt (when the library has a receipt generator). */
  readonly receipts?: boolean;
  /** The tool returns an Observable instead of a promise. */
  readonly observableTool?: boolean;
  /** More of `createAgent`'s configuration (a logger, a tracer), over the rest. */
  readonly config?: Record<string, unknown>;
  /** Each turn's input carries an ingress (a web channel), as an app's would. */
  readonly ingress?: boolean;
  /** Each turn's input carries a signal (a fresh AbortController's, never aborted), as a server's request would. */
  readonly signal?: boolean;
  /** A `beforeToolCall` hook that answers with a promise (and changes nothing). */
  readonly asyncHook?: boolean;
  /** `knobs.toolTimeoutMs`: every call under that deadline. */
  readonly toolTimeoutMs?: number;
  /** What the tool answers instead of its short text (a file's content, say). */
  readonly toolOutput?: string;
  /** Every call's arguments also carry this text (`content`, as a file-writing tool's would). */
  readonly argsText?: string;
  /** This many more tools defined beside the one the model calls (an MCP server's, say). */
  readonly moreTools?: number;
  /** Every guard and observer off (no observer, dedup, loop detection or approval): the loop's own cost. */
  readonly bare?: boolean;
}

/**
 * A model that answers from the scripted batch: the batch while the last message is not a tool
 * result, then the final text. Keeps nothing between requests (the library's `scriptedModel`
 * records every request, which the memory section must not measure).
 */
export function benchProvider(ours: OursLib, calls: readonly ScriptedCall[]): ModelProvider {
  const { stepEvents } = ours.testing;
  const batch = stepEvents({ toolCalls: calls });
  const final = stepEvents({ text: FINAL_TEXT });
  return {
    name: 'bench',
    nativeTools: true,
    ignoresSignal: true, // a synchronous script: nothing to abort
    request: (req): Observable<ProviderEvent> => (req.messages[req.messages.length - 1]?.role === 'tool' ? final : batch),
  };
}

const noopTool = ({ lib }: OursLib, observable = false, output?: string, content = false): Tool =>
  lib.defineTool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: content ? argsSchema.extend({ content: z.string() }) : argsSchema,
    // the same answer as an Observable: it emits when the promise settles
    execute: observable
      ? (args) => new Observable<string>((s) => void noop(args).then((v) => (s.next(v), s.complete())))
      : output === undefined
        ? (args) => noop(args)
        : (args) => noop(args).then(() => output),
  });

/** `n` tools the model never calls, each with a schema of its own size. */
const moreTools = ({ lib }: OursLib, n: number): Tool[] =>
  Array.from({ length: n }, (_, k) =>
    lib.defineTool({
      name: `other_${k}`,
      description: `Another tool (${k}): reads a record by its path and returns it.`,
      parameters: z.object({ path: z.string(), limit: z.number().optional(), recursive: z.boolean().optional() }),
      execute: () => 'unused',
    }),
  );

/** The calls of a batch with `text` added to each one's arguments as `content`. */
const withContent = (calls: readonly ScriptedCall[], text: string): ScriptedCall[] =>
  calls.map((c) => ({ ...c, arguments: `${c.arguments.slice(0, -1)},"content":${JSON.stringify(text)}}` }));

/** Whatever guards the library has today, switched on (they are found at run time). */
function guards({ lib }: OursLib, options: OursOptions) {
  const anyLib = lib as unknown as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  if (options.bare) return { extra, on: ['zod args only: no observer, dedup, loop detection or approval'] };
  const on: string[] = ['observer', 'dedup', 'loop detection', 'zod args'];
  const Manager = anyLib.ApprovalManager as (new (...a: unknown[]) => unknown) | undefined;
  const nonInteractive = anyLib.nonInteractiveApproval as (() => unknown) | undefined;
  if (Manager && nonInteractive) {
    extra.approval = new Manager({ level: 'supervised', autoApprove: ['*'], alwaysAsk: [] }, nonInteractive());
    on.push('approval (auto-approve *)');
  }
  const makeReceipts = anyLib.createReceiptGenerator as (() => unknown) | undefined;
  if (options.receipts && makeReceipts) {
    extra.receipts = makeReceipts();
    on.push('receipts');
  }
  return { extra, on };
}

/** rx-tool-loop: `createAgent` + `agent.complete`, parallel, every guard and observer on. */
export function ours(loaded: OursLib, options: OursOptions): System {
  const { on } = guards(loaded, options);
  const { createAgent } = loaded.lib;
  return {
    name: options.label,
    note: `parallelTools, maxParallelTools ${options.maxParallelTools}; ${on.join(', ')}`,
    ...(options.bare ? {} : { cancelledTurn: cancelledTurnOf(loaded, options) }),
    prepare(n): PreparedSystem {
      let observed = 0;
      const observer: ToolObserver = () => {
        observed++;
      };
      const agent = createAgent({
        provider: benchProvider(loaded, options.argsText === undefined ? scriptedCalls(n) : withContent(scriptedCalls(n), options.argsText)),
        model: 'bench',
        tools: [noopTool(loaded, options.observableTool, options.toolOutput, options.argsText !== undefined), ...moreTools(loaded, options.moreTools ?? 0)],
        observers: options.bare ? [] : [observer],
        knobs: {
          parallelTools: true,
          maxParallelTools: options.maxParallelTools,
          dedupEnabled: !options.bare,
          loopDetection: { enabled: !options.bare },
          ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
        },
        ids: counterIds(),
        ...(options.asyncHook ? { hooks: { beforeToolCall: [async () => undefined] } } : {}),
        ...guards(loaded, options).extra,
        ...options.config,
      });
      return {
        async turn() {
          // literals, not spreads: the input's own shape stays out of the figures
          const input = options.ingress
            ? { message: 'go', ingress: { channel: 'web', replyTarget: 'thread-1' } }
            : options.signal
              ? { message: 'go', signal: new AbortController().signal }
              : { message: 'go' };
          const outcome = await agent.complete(input);
          if (outcome.text !== FINAL_TEXT) throw new Error(`ours: unexpected answer ${JSON.stringify(outcome.text)}`);
        },
      };
    },
  };
}

/** Cheap unique ids (the default is crypto.randomUUID, also cheap; this keeps the profile clean). */
function counterIds(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

/**
 * A turn of three calls (noop, wait, wait) cancelled mid-batch: the first `wait` schedules the
 * abort for after the noop finished; each `wait` resolves only when its signal aborts.
 */
function cancelledTurnOf(loaded: OursLib, options: OursOptions): () => Promise<void> {
  const { createAgent, defineTool } = loaded.lib;
  let current: AbortController | undefined;
  const wait = defineTool({
    name: 'wait',
    description: 'Waits until cancelled.',
    parameters: argsSchema,
    execute: (args, ctx) =>
      new Promise<string>((resolve) => {
        if (args.i === 1) {
          const controller = current;
          setImmediate(() => controller?.abort());
        }
        ctx.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
      }),
  });
  const calls = cancelledTurnCalls();
  const agent = createAgent({
    provider: benchProvider(loaded, calls),
    model: 'bench',
    tools: [noopTool(loaded), wait],
    observers: [() => {}],
    knobs: { parallelTools: true, maxParallelTools: options.maxParallelTools, dedupEnabled: true },
    ids: counterIds(),
    ...guards(loaded, options).extra,
  });
  return async () => {
    current = new AbortController();
    const outcome = await agent.complete({ message: 'go', signal: current.signal });
    if (outcome.reason !== 'cancelled') throw new Error(`ours: the cancelled turn ended '${outcome.reason}'`);
  };
}
