/**
 * Runs many cancelled turns and reports what they left behind, as one JSON line on stdout:
 *
 * ```sh
 * node --expose-gc --import tsx test/reliability/leak-probe.ts 10000
 * ```
 *
 * Three kinds of turn, in rotation, each cancelled while work is pending: (a) parallel tools
 * running (one with a timeout timer, one listening to its signal, one never answering), cancelled
 * by aborting the turn's own signal; (b) the same, torn down by unsubscribing, on one long-lived
 * signal shared by every such turn; (c) a prompt waiting for a backchannel operator that never
 * answers (with a timeout timer), torn down by unsubscribing, on the shared signal.
 *
 * Every turn carries a distinct 1 KB message, so a turn whose state stays reachable leaks at
 * least 1 KB: 9,000 leaked turns would be 9 MB, far above the heap bound the test checks.
 */
import { getEventListeners } from 'node:events';
import { Observable } from 'rxjs';
import { z } from 'zod';
import { createAgent, defineTool, type ModelProvider, type ToolReturn } from '../../src/index.js';
import { ApprovalManager, backchannelApproval } from '../../src/approval/index.js';
import { stepEvents, type ScriptedStep } from '../../src/testing/index.js';

const turns = Number(process.argv[2] ?? 10_000);
const warmup = Math.min(1_000, Math.floor(turns / 10));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

// Timers: every handle created and not yet fired or cleared.
const live = new Set<unknown>();
const { setTimeout: st, clearTimeout: ct, setInterval: si, clearInterval: ci } = globalThis;
globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
  const handle = st((...a: unknown[]) => {
    live.delete(handle);
    fn(...a);
  }, ms, ...rest);
  live.add(handle);
  return handle;
}) as typeof setTimeout;
globalThis.setInterval = ((fn: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
  const handle = si(fn, ms, ...rest);
  live.add(handle);
  return handle;
}) as typeof setInterval;
globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => {
  live.delete(handle);
  ct(handle);
}) as typeof clearTimeout;
globalThis.clearInterval = ((handle: Parameters<typeof clearInterval>[0]) => {
  live.delete(handle);
  ci(handle);
}) as typeof clearInterval;

let toolSignals = 0;
let toolSignalsAborted = 0;
let asked = 0;
let withdrawn = 0;
const watch = (signal: AbortSignal, onAbort: () => void) => signal.addEventListener('abort', onAbort, { once: true });
// Plain tools and providers: the testing kit's fakeTool and scriptedModel record every call and
// request, which would be the only thing growing here.
const tool = (name: string, execute: () => ToolReturn, timeoutMs?: number) =>
  defineTool({ name, description: name, parameters: z.looseObject({}), execute, timeoutMs });
const tools = [
  tool('quick', () => 'done'),
  tool('timed', () => new Promise<string>(() => {}), 60_000),
  defineTool({
    name: 'listening',
    description: 'listening',
    parameters: z.looseObject({}),
    execute: (_args, ctx) => {
      toolSignals++;
      return new Promise<string>((_resolve, reject) => watch(ctx.signal, () => (toolSignalsAborted++, reject(new Error('aborted')))));
    },
  }),
  tool('silent', () => new Observable<string>(() => {})),
];
const model = (step: ScriptedStep): ModelProvider => ({ name: 'probe', nativeTools: true, request: () => stepEvents(step) });
const batch = { toolCalls: tools.map((t, i) => ({ id: `c${i}`, name: t.name, arguments: {} })) };
const running = createAgent({ provider: model(batch), model: 'm', tools, knobs: { parallelTools: true, toolTimeoutMs: 60_000 } });
const asking = createAgent({
  provider: model({ toolCalls: [{ id: 'p', name: 'quick', arguments: {} }] }),
  model: 'm',
  tools,
  approval: new ApprovalManager(
    { alwaysAsk: ['quick'] },
    backchannelApproval((_req, signal) => (asked++, watch(signal, () => withdrawn++), new Promise(() => {})), { timeoutMs: 60_000 }),
    { maxAuditEntries: 0 },
  ),
});

const shared = new AbortController().signal;
let leftoverOnOwnSignals = 0;
let dones = 0;
let notCancelled = 0;

function turn(n: number): void {
  const message = `${n}:`.padEnd(1024, 'x');
  switch (n % 3) {
    case 0: {
      const controller = new AbortController();
      running.run({ message, signal: controller.signal }).subscribe((e) => {
        if (e.type !== 'done') return;
        dones++;
        if (e.reason !== 'cancelled') notCancelled++;
      });
      controller.abort();
      leftoverOnOwnSignals += getEventListeners(controller.signal, 'abort').length;
      return;
    }
    case 1:
      running.run({ message, signal: shared }).subscribe().unsubscribe();
      return;
    default:
      asking.run({ message, signal: shared }).subscribe().unsubscribe();
  }
}

const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/**
 * Runs turns `from` to `to`, yielding to the event loop every 100 turns as an application would
 * (Node defers some bookkeeping for promises rejected inside an abort event to the next tick:
 * 100,000 such rejections in one synchronous stretch hold a few MB until then, with or without
 * this library).
 */
async function turnsFrom(from: number, to: number): Promise<void> {
  for (let n = from; n < to; n++) {
    turn(n);
    if (n % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
}

const started = process.hrtime.bigint();
await turnsFrom(0, warmup);
const heapAtWarmup = heap();
await turnsFrom(warmup, turns);
const heapAtEnd = heap();

process.stdout.write(
  `${JSON.stringify({
    turns,
    warmup,
    heapAtWarmup,
    heapAtEnd,
    heapGrowth: heapAtEnd - heapAtWarmup,
    dones,
    notCancelled,
    leftoverOnOwnSignals,
    leftoverOnShared: getEventListeners(shared, 'abort').length,
    liveTimers: live.size,
    activeTimeouts: process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length,
    toolSignals,
    toolSignalsNotAborted: toolSignals - toolSignalsAborted,
    promptsAsked: asked,
    promptsWithdrawn: withdrawn,
    ms: Number(process.hrtime.bigint() - started) / 1e6,
  })}\n`,
);
