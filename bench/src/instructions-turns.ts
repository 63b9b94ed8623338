// @ts-check
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Observable } from 'rxjs';
import { z } from 'zod';

/**
 * The child of instructions.ts, run under callgrind: the server regime's turn (server-workload.ts:
 * 3 iterations × 3 calls, tools defined once, `createAgent` per turn) for C conversations at once,
 * with every wait a `setImmediate` (the model, the tools), so the order in which turns interleave
 * is the same in every run. `warm` turns per conversation run first without instrumentation; then
 * callgrind is switched on for `turns` turns per conversation. Plain JavaScript: a loader (tsx)
 * in this process would add a thread of its own to what callgrind counts.
 *
 *   node --predictable bench/src/instructions-turns.mjs <built dir (build-ours.ts) | floor> <warm> <turns> [C=20]
 */
const [target, warmArg, turnsArg, cArg] = process.argv.slice(2);
const warm = Number(warmArg);
const turns = Number(turnsArg);
const c = Number(cArg ?? 20);
const ITERATIONS = 3;
const FINAL = 'All done.';
const argsSchema = z.object({ i: z.number() });
/** @param {number} k */
const callsOf = (k) => [0, 1, 2].map((j) => ({ id: `call_${3 * k + j}`, name: 'noop', arguments: `{"i":${3 * k + j}}` }));
/** @returns {Promise<void>} */
const next = () => new Promise((resolve) => setImmediate(resolve));
const tool = async () => {
  await next();
  return 'ok';
};

/** @type {(id: string) => () => Promise<void>} */
let conversation;
if (target === 'floor') {
  const batches = Array.from({ length: ITERATIONS }, (_, k) => callsOf(k));
  conversation = () => async () => {
    const history = [{ role: 'user', content: 'go' }];
    for (let k = 0; ; k++) {
      await next();
      if (k >= ITERATIONS) {
        history.push({ role: 'assistant', content: FINAL });
        break;
      }
      const calls = batches[k];
      history.push({ role: 'assistant', content: null, tool_calls: calls });
      const results = await Promise.all(calls.map((call) => (argsSchema.safeParse(JSON.parse(call.arguments)).success ? tool() : 'invalid')));
      for (let j = 0; j < calls.length; j++) history.push({ role: 'tool', tool_call_id: calls[j].id, content: results[j] });
    }
  };
} else {
  const lib = await import(pathToFileURL(join(target, 'index.js')).href);
  const testing = await import(pathToFileURL(join(target, 'testing', 'index.js')).href);
  const tools = [lib.defineTool({ name: 'noop', description: 'Says ok.', parameters: argsSchema, execute: () => tool() })];
  const steps = [...Array.from({ length: ITERATIONS }, (_, k) => testing.stepEvents({ toolCalls: callsOf(k) })), testing.stepEvents({ text: FINAL })];
  const provider = {
    name: 'bench-instructions',
    nativeTools: true,
    ignoresSignal: true,
    /** @param {{ messages: { role: string }[] }} req */
    request: (req) =>
      new Observable((subscriber) => {
        let results = 0;
        for (const m of req.messages) if (m.role === 'tool') results++;
        /** @type {{ unsubscribe(): void } | undefined} */
        let inner;
        const wait = setImmediate(() => (inner = steps[Math.min(Math.floor(results / 3), ITERATIONS)].subscribe(subscriber)));
        return () => {
          clearImmediate(wait);
          inner?.unsubscribe();
        };
      }),
  };
  conversation = (id) => async () => {
    const agent = lib.createAgent({ provider, model: 'bench', tools, knobs: { parallelTools: true } });
    const outcome = await agent.complete({ message: 'go', conversationId: id });
    if (outcome.text !== FINAL) throw new Error(`unexpected answer ${JSON.stringify(outcome.text)}`);
  };
}
const all = Array.from({ length: c }, (_, k) => conversation(`conversation-${k}`));
/** @param {number} n */
const run = (n) =>
  Promise.all(
    all.map(async (turn) => {
      for (let t = 0; t < n; t++) await turn();
    }),
  );
await run(warm);
execFileSync('callgrind_control', ['-i', 'on', String(process.pid)], { stdio: 'ignore' });
await run(turns);
