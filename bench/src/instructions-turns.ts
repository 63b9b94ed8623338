import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Observable } from 'rxjs';
import type * as Lib from '../../src/index.js';
import type { ModelProvider, ProviderEvent } from '../../src/index.js';
import type * as Testing from '../../src/testing/index.js';
import { droppingTracer } from './dropping-tracer.js';
import { ITERATIONS, serverCalls, SERVER_FINAL } from './server-workload.js';
import { floor } from './systems/floor.js';
import { ours } from './systems/ours.js';
import { argsSchema, type PreparedSystem } from './workload.js';

/**
 * The child of instructions.ts, run under callgrind: the server regime's turn (server-workload.ts:
 * 3 iterations × 3 calls, tools defined once, `createAgent` per turn) for C conversations at once,
 * with every wait a `setImmediate` (the model, the tools), so the order in which turns interleave
 * is the same in every run. `warm` turns per conversation run first without instrumentation; then
 * callgrind is switched on for `turns` turns per conversation. instructions.ts bundles it into
 * plain JavaScript first: a loader (tsx) in this process would add a thread of its own to what
 * callgrind counts.
 *
 * With a batch size N > 0 each conversation runs the back-to-back regime's turn instead (overhead.ts:
 * one batch of N calls, cap 8, an observer and every guard on; systems/ours.ts and floor.ts).
 *
 *   node --predictable <bundle> <built dir (build-ours.ts) | floor> <warm> <turns> [C=20] [N=0] [none | signal | tracer]
 *
 * `signal`: each turn of ours gets a fresh AbortController's signal (never aborted), as a server's
 * request would give it. `tracer`: each agent of ours has an OpenTelemetry tracer (`droppingTracer`).
 */
const [target, warmArg, turnsArg, cArg, batchArg, withArg] = process.argv.slice(2);
const signal = withArg === 'signal';
const tracer = withArg === 'tracer' ? droppingTracer() : undefined;
const warm = Number(warmArg);
const turns = Number(turnsArg);
const c = Number(cArg ?? 20);
const batch = Number(batchArg ?? 0);
const next = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const tool = async (): Promise<string> => {
  await next();
  return 'ok';
};

let conversation: (id: string) => () => Promise<void>;
if (batch > 0) {
  const system =
    target === 'floor'
      ? floor
      : ours(
          { lib: await import(pathToFileURL(join(target, 'index.js')).href), testing: await import(pathToFileURL(join(target, 'testing', 'index.js')).href), from: target },
          { label: 'ours (cap 8)', maxParallelTools: 8, signal, ...(tracer ? { config: { tracer } } : {}) },
        );
  const prepared: PreparedSystem[] = [];
  for (let k = 0; k < c; k++) prepared.push(await system.prepare(batch));
  conversation = () => {
    const one = prepared.pop()!;
    return () => one.turn();
  };
} else if (target === 'floor') {
  const batches = Array.from({ length: ITERATIONS }, (_, k) => serverCalls(k));
  conversation = () => async () => {
    const history: unknown[] = [{ role: 'user', content: 'go' }];
    for (let k = 0; ; k++) {
      await next();
      if (k >= ITERATIONS) {
        history.push({ role: 'assistant', content: SERVER_FINAL });
        break;
      }
      const calls = batches[k];
      history.push({ role: 'assistant', content: null, tool_calls: calls });
      const results = await Promise.all(calls.map((call) => (argsSchema.safeParse(JSON.parse(call.arguments)).success ? tool() : 'invalid')));
      for (let j = 0; j < calls.length; j++) history.push({ role: 'tool', tool_call_id: calls[j].id, content: results[j] });
    }
  };
} else {
  const lib = (await import(pathToFileURL(join(target, 'index.js')).href)) as typeof Lib;
  const testing = (await import(pathToFileURL(join(target, 'testing', 'index.js')).href)) as typeof Testing;
  const tools = [lib.defineTool({ name: 'noop', description: 'Says ok.', parameters: argsSchema, execute: () => tool() })];
  const steps = [...Array.from({ length: ITERATIONS }, (_, k) => testing.stepEvents({ toolCalls: serverCalls(k) })), testing.stepEvents({ text: SERVER_FINAL })];
  const provider: ModelProvider = {
    name: 'bench-instructions',
    nativeTools: true,
    ignoresSignal: true,
    request: (req) =>
      new Observable<ProviderEvent>((subscriber) => {
        let results = 0;
        for (const m of req.messages) if (m.role === 'tool') results++;
        let inner: { unsubscribe(): void } | undefined;
        const wait = setImmediate(() => (inner = steps[Math.min(Math.floor(results / 3), ITERATIONS)].subscribe(subscriber)));
        return () => {
          clearImmediate(wait);
          inner?.unsubscribe();
        };
      }),
  };
  conversation = (id) => async () => {
    const agent = tracer
      ? lib.createAgent({ provider, model: 'bench', tools, knobs: { parallelTools: true }, tracer })
      : lib.createAgent({ provider, model: 'bench', tools, knobs: { parallelTools: true } });
    const input = signal ? { message: 'go', conversationId: id, signal: new AbortController().signal } : { message: 'go', conversationId: id };
    const outcome = await agent.complete(input);
    if (outcome.text !== SERVER_FINAL) throw new Error(`unexpected answer ${JSON.stringify(outcome.text)}`);
  };
}
const all = Array.from({ length: c }, (_, k) => conversation(`conversation-${k}`));
// Each conversation's loop is one closure for the warm-up and the counted turns alike: a new one
// for the counted turns was compiled again by V8 inside them (bench/RESULTS.md, "Session 12").
const loops = all.map((turn) => async (n: number) => {
  for (let t = 0; t < n; t++) await turn();
});
const run = (n: number) => Promise.all(loops.map((loop) => loop(n)));
await run(warm);
execFileSync('callgrind_control', ['-i', 'on', String(process.pid)], { stdio: 'ignore' });
await run(turns);
