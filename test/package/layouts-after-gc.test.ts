import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

// Turns of the built package, then a full GC with no turn running, then three more turns. The
// markers are objects with a key of their own, so V8's map log shows where each phase starts;
// their names are built at run time so the logged script source does not contain them.
const probe = `
  const { createAgent, defineTool, textProtocolProvider } = await import('rx-tool-loop');
  const { scriptedModel } = await import('rx-tool-loop/testing');
  const { z } = await import('zod');
  const { Observable, lastValueFrom } = await import('rxjs');
  const echo = defineTool({ name: 'echo', description: 'echo', parameters: z.object({ s: z.string() }), execute: async ({ s }) => s });
  const risky = defineTool({ name: 'risky', description: 'r', risk: 'high', parameters: z.object({ n: z.number() }), execute: ({ n }) => ({ n }) });
  // every third turn: an async hook, a deadline on every call, and a tool that answers with an Observable
  const later = defineTool({ name: 'echo', description: 'echo', parameters: z.object({ s: z.string() }), execute: ({ s }) => new Observable((o) => void Promise.resolve(s).then((v) => (o.next(v), o.complete()))) });
  const native = () => scriptedModel([
    { toolCalls: [{ name: 'echo', arguments: { s: 'a' } }, { name: 'echo', arguments: { s: 'b' } }, { name: 'risky', arguments: { n: 1 } }] },
    { text: 'ok' },
  ]);
  const text = () => textProtocolProvider(scriptedModel([
    { text: '<tool_call>{"name":"echo","arguments":{"s":"a"}}</tool_call><tool_call>{"name":"risky","arguments":{"n":2}}</tool_call>' },
    { text: 'ok' },
  ], { nativeTools: false }));
  const events = [];
  const turn = async (k) => {
    const provider = k % 3 === 2 ? text() : native();
    const observers = [(event) => events.push(event)];
    const busy = k % 3 === 1;
    const agent = createAgent({
      provider, model: 'm', tools: [busy ? later : echo, risky], observers,
      knobs: { parallelTools: k % 3 === 0, ...(busy ? { toolTimeoutMs: 60000 } : {}) },
      ...(busy ? { hooks: { beforeToolCall: [async () => undefined] } } : {}),
    });
    // complete's quiet turn (its observers told directly) and run's full one, in turn
    const done = k % 2 === 1 ? await lastValueFrom(agent.run({ message: 'x' })) : await agent.complete({ message: 'x' });
    if (done.text !== 'ok' || events.length === 0) throw new Error(done.text);
    events.length = 0;
  };
  const mark = (name) => { const o = {}; o['LAYOUT_' + name] = 1; globalThis['LAYOUT_' + name] = o; };
  for (let k = 0; k < 30; k++) await turn(k);
  mark('GC');
  globalThis.gc();
  mark('AFTER');
  for (let k = 0; k < 6; k++) await turn(k);
  mark('END');
`;

/** The constructor of each object layout (V8 map) made in each phase of the probe. */
async function layoutsMade(): Promise<{ turns: string[]; afterGc: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'rx-tool-loop-layouts-'));
  dirs.push(dir);
  const log = join(dir, 'v8.log');
  await run(process.execPath, ['--expose-gc', '--log-maps', `--logfile=${log}`, '--no-logfile-per-isolate', '--input-type=module', '-e', probe], {
    cwd: root,
    maxBuffer: 1 << 24,
  });
  const lines = (await readFile(log, 'utf8')).split('\n');
  const at = (name: string): number => lines.findIndex((line) => line.startsWith('map') && line.includes(`LAYOUT_${name}`));
  const constructors = (from: number, to: number): string[] =>
    lines
      .slice(from, to)
      .filter((line) => line.startsWith('map-details'))
      .map((line) => /constructor: 0x[0-9a-f]+ <JSFunction ([^\s>]+)/.exec(line)?.[1])
      .filter((name) => name !== undefined)
      .map((name) => name.replace(/^_+/, '')); // the bundler names a class that refers to itself `_Name`
  expect(at('GC')).toBeGreaterThan(0);
  expect(at('AFTER')).toBeGreaterThan(at('GC'));
  expect(at('END')).toBeGreaterThan(at('AFTER'));
  return { turns: constructors(0, at('GC')), afterGc: constructors(at('AFTER'), at('END')) };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('object layouts across a full garbage collection (bench/RESULTS.md, "Session 7: after a full GC")', () => {
  it('a turn after a full GC between turns makes no layout for a class instance: the ones it uses were kept', async () => {
    const { turns, afterGc } = await layoutsMade();
    // the log names the classes whose layouts the turns made (what a lost layout would show as)
    expect(turns).toEqual(expect.arrayContaining(['SlotRecord', 'ToolRun', 'OperatorSubscriber', 'RunningTurn', 'LoopDetector']));
    // after the GC, only plain objects' layouts (parsed arguments, per-agent settings) and Node's
    // own timers' (a deadline's setInterval) are made again
    const nodes = new Set(['Object', 'Timeout', 'TimersList']);
    expect([...new Set(afterGc)].filter((name) => !nodes.has(name))).toEqual([]);
  }, 60_000);
});
