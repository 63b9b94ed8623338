import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent as PeerAgent, Runner, RunState, tool, Usage, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';
import { lastValueFrom } from 'rxjs';
import type * as Lib from '../../src/index.js';
import type * as Operators from '../../src/operators.js';
import type * as Testing from '../../src/testing/index.js';
import { buildDir, repoRoot } from './build-ours.js';
import { collect, hasGc, median } from './measure.js';
import { benchProvider } from './systems/ours.js';
import { argsSchema, FINAL_TEXT, noop, TOOL_DESCRIPTION, TOOL_NAME, type ScriptedCall } from './workload.js';

/**
 * Durable turns: how big a parked turn is and what parking and resuming it cost, ours
 * (`TurnSnapshot` through JSON) against OpenAI Agents JS (`RunState.toString()` /
 * `RunState.fromString()`), on the same turn: 20 history messages, then a user message; the model
 * asks for 10 calls in one batch, the last of which needs an approval; the turn parks; it is
 * approved and runs to the model's final answer.
 *
 *   node --expose-gc --import tsx bench/src/durable-snapshot.ts [--runs=15] [--turns=40] [--calls=10] [--history=20]
 *
 * Per turn, CPU time (process.cpuUsage, user + system) of:
 * - run to park: a new turn up to its parked end (ours: `agent.complete` with `pauseForApproval()`;
 *   theirs: `runner.run` up to its interruption);
 * - park: the parked turn to a string (ours: `JSON.stringify(done.snapshot)`; theirs: `state.toString()`);
 * - JSON.parse alone: the string back to plain objects, for scale;
 * - restore: the string back to a checked turn, nothing run (ours: `JSON.parse` + `checkSnapshot`, the
 *   zod validation and fail-closed checks `agent.resume` starts with; theirs: `RunState.fromString`);
 * - resume: the string to the turn's final answer (ours: `JSON.parse` + `agent.resume(...)` to its
 *   `done`; theirs: `fromString` + `approve` + `runner.run` to its final output).
 * Each sample times `turns` turns of one system in a row; the two systems alternate sample by
 * sample (their order flips each time), so both see the same machine. Medians over the samples;
 * the ratio is the median of the ratios of the pairs measured back to back.
 * Not a test: it never fails on a figure.
 */
const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const RUNS = option('runs', 15);
const TURNS = option('turns', 40);
const CALLS = option('calls', 10);
const HISTORY = option('history', 20);

const APPROVE_TOOL = 'write_note';
const APPROVE_DESCRIPTION = 'Writes a note (needs an approval).';

/** The batch: `calls - 1` no-op reads, then one write that needs an approval (the last slot). */
function batchOf(calls: number): ScriptedCall[] {
  const batch: ScriptedCall[] = [];
  for (let k = 0; k < calls; k++) batch.push({ id: `call_${k}`, name: k === calls - 1 ? APPROVE_TOOL : TOOL_NAME, arguments: `{"i":${k}}` });
  return batch;
}

/** `n` earlier messages, user and assistant in turn, about 200 characters each. */
function historyText(k: number): string {
  return `Message ${k} of the conversation so far: the user asked about the quarterly notes, the assistant summarised them, and they agreed on the next steps to take before Friday.`;
}

// ─── ours ─────────────────────────────────────────────────────────────────────────────────────

interface OursBuild {
  readonly lib: typeof Lib;
  readonly operators: typeof Operators;
  readonly testing: typeof Testing;
}

/**
 * Builds src/ with tsup (ESM, node20, not minified, as published) into the bench's cache, with the
 * `operators` entry too (for `checkSnapshot`), in a child process so the build tools do not stay
 * in the measuring process's heap.
 */
async function buildOurs(): Promise<OursBuild> {
  const outDir = `${buildDir}-durable`;
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--build', outDir], { cwd: repoRoot, stdio: 'inherit' });
  const url = (entry: string) => {
    const file = join(outDir, `${entry}.js`);
    if (!existsSync(file)) throw new Error(`The bench build of rx-tool-loop is missing ${entry} (${outDir}).`);
    return pathToFileURL(file).href;
  };
  return {
    lib: (await import(url('index'))) as typeof Lib,
    operators: (await import(url('operators'))) as typeof Operators,
    testing: (await import(url('testing/index'))) as typeof Testing,
  };
}

async function buildInThisProcess(outDir: string): Promise<void> {
  const { build } = await import('tsup');
  const src = join(repoRoot, 'src');
  await build({
    config: false,
    entry: { index: join(src, 'index.ts'), operators: join(src, 'operators.ts'), 'testing/index': join(src, 'testing/index.ts') },
    outDir,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
    sourcemap: false,
    dts: false,
    clean: true,
    silent: true,
    tsconfig: join(repoRoot, 'tsconfig.json'),
  });
}

/** What one system does with one turn, phase by phase. */
interface Subject {
  readonly name: string;
  /** A new turn up to its park; resolves with the parked turn (opaque). */
  runToPark(): Promise<unknown>;
  /** The parked turn as a string. */
  park(parked: unknown): string;
  /** The string back to a checked turn (nothing runs). */
  restore(stored: string): Promise<unknown>;
  /** Only `JSON.parse` of the string (what the restore adds to it is validation and rebuilding). */
  parse(stored: string): unknown;
  /** The string, approved, to the turn's final answer. */
  resume(stored: string): Promise<void>;
}

function oursSubject(build: OursBuild, calls: readonly ScriptedCall[], history: number): Subject {
  const { lib, operators, testing } = build;
  const noopTool = lib.defineTool({ name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: argsSchema, risk: 'read', execute: (a) => noop(a) });
  const writeTool = lib.defineTool({ name: APPROVE_TOOL, description: APPROVE_DESCRIPTION, parameters: argsSchema, risk: 'write', execute: (a) => noop(a) });
  const tools = [noopTool, writeTool];
  const agent = lib.createAgent({
    name: 'bench',
    provider: benchProvider({ lib, testing, from: 'durable bench build' }, calls),
    model: 'bench',
    tools,
    approval: new lib.ApprovalManager({ level: 'supervised' }, lib.pauseForApproval()),
    knobs: { parallelTools: true, maxParallelTools: 8 },
  });
  const messages: Lib.ChatMessage[] = [];
  for (let k = 0; k < history; k++) messages.push(k % 2 === 0 ? { role: 'user', content: historyText(k) } : { role: 'assistant', content: historyText(k) });
  const byName = new Map<string, Lib.Tool>(tools.map((t) => [t.name, t]));
  const toolsOf = () => ({ specs: tools.map((t) => t.spec), names: tools.map((t) => t.name), get: (n: string) => byName.get(n) });
  const decisionsOf = (snapshot: Lib.TurnSnapshot): Record<string, 'yes'> => {
    const waiting = snapshot.batch?.slots.find((s) => s.state === 'awaiting-approval');
    if (!waiting || waiting.state !== 'awaiting-approval') throw new Error('ours: the snapshot has no approval waiting');
    return { [waiting.request.requestId]: 'yes' };
  };
  return {
    name: 'ours',
    async runToPark() {
      const done = await agent.complete({ message: 'go', history: messages });
      if (done.reason !== 'paused' || done.pending?.length !== 1) throw new Error(`ours: the turn ended '${done.reason}' instead of parking`);
      return done.snapshot;
    },
    park: (snapshot) => JSON.stringify(snapshot),
    parse: (stored) => JSON.parse(stored),
    async restore(stored) {
      const snapshot = JSON.parse(stored) as Lib.TurnSnapshot;
      return operators.checkSnapshot(agent.resolved, snapshot, decisionsOf(snapshot), undefined, toolsOf as never);
    },
    async resume(stored) {
      const snapshot = JSON.parse(stored) as Lib.TurnSnapshot;
      const done = await lastValueFrom(agent.resume(snapshot, { decisions: decisionsOf(snapshot) }));
      if (done.type !== 'done' || done.reason !== 'final' || done.text !== FINAL_TEXT) throw new Error(`ours: the resumed turn ended ${JSON.stringify(done.type === 'done' ? done.reason : done.type)}`);
    },
  };
}

// ─── OpenAI Agents JS ─────────────────────────────────────────────────────────────────────────

/** A fake Model: the batch of function calls until the input ends with a tool result, then a message. */
class FakeModel implements Model {
  readonly #batch: ModelResponse['output'];
  constructor(calls: readonly ScriptedCall[]) {
    this.#batch = calls.map((call) => ({ type: 'function_call' as const, callId: call.id, name: call.name, arguments: call.arguments, status: 'completed' as const }));
  }
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = request.input;
    const last = Array.isArray(input) ? input[input.length - 1] : undefined;
    if (last?.type === 'function_call_result') {
      return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: FINAL_TEXT }] }] };
    }
    return { usage: new Usage(), output: this.#batch };
  }
  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('FakeModel does not stream');
  }
}

function peerSubject(calls: readonly ScriptedCall[], history: number): Subject {
  const noopTool = tool({ name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: argsSchema, execute: (input) => noop(input) });
  const writeTool = tool({ name: APPROVE_TOOL, description: APPROVE_DESCRIPTION, parameters: argsSchema, needsApproval: true, execute: (input) => noop(input) });
  const agent = new PeerAgent({ name: 'bench', instructions: 'Call tools.', model: new FakeModel(calls), tools: [noopTool, writeTool] });
  const runner = new Runner({ tracingDisabled: true });
  const input: AgentInputItem[] = [];
  for (let k = 0; k < history; k++) {
    input.push(
      k % 2 === 0
        ? { role: 'user', content: historyText(k) }
        : { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: historyText(k) }] },
    );
  }
  input.push({ role: 'user', content: 'go' });
  return {
    name: 'openai-agents',
    async runToPark() {
      const result = await runner.run(agent, input);
      if (result.interruptions.length !== 1) throw new Error(`openai-agents: ${result.interruptions.length} interruptions instead of 1`);
      return result.state;
    },
    park: (state) => (state as RunState<unknown, typeof agent>).toString(),
    parse: (stored) => JSON.parse(stored),
    restore: (stored) => RunState.fromString(agent, stored),
    async resume(stored) {
      const state = await RunState.fromString(agent, stored);
      for (const item of state.getInterruptions()) state.approve(item);
      const result = await runner.run(agent, state);
      if (result.finalOutput !== FINAL_TEXT) throw new Error(`openai-agents: unexpected answer ${JSON.stringify(result.finalOutput)}`);
    },
  };
}

// ─── measuring ────────────────────────────────────────────────────────────────────────────────

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** CPU µs per turn of each phase, for `turns` turns of one subject in a row. */
async function sample(subject: Subject, turns: number): Promise<Record<Phase, number>> {
  const parked: unknown[] = [];
  collect();
  let t = process.cpuUsage();
  for (let k = 0; k < turns; k++) parked.push(await subject.runToPark());
  const runToPark = cpuMs(t);
  collect();
  const stored: string[] = [];
  t = process.cpuUsage();
  for (const p of parked) stored.push(subject.park(p));
  const park = cpuMs(t);
  collect();
  t = process.cpuUsage();
  for (const s of stored) subject.parse(s);
  const parse = cpuMs(t);
  collect();
  t = process.cpuUsage();
  for (const s of stored) await subject.restore(s);
  const restore = cpuMs(t);
  collect();
  t = process.cpuUsage();
  for (const s of stored) await subject.resume(s);
  const resume = cpuMs(t);
  const us = (ms: number) => (ms * 1000) / turns;
  return { runToPark: us(runToPark), park: us(park), parse: us(parse), restore: us(restore), resume: us(resume) };
}

type Phase = 'runToPark' | 'park' | 'parse' | 'restore' | 'resume';
const PHASES: readonly Phase[] = ['runToPark', 'park', 'parse', 'restore', 'resume'];

async function sizeOf(subject: Subject): Promise<number> {
  return Buffer.byteLength(subject.park(await subject.runToPark()), 'utf8');
}

async function main(): Promise<void> {
  const build = await buildOurs();
  const calls = batchOf(CALLS);
  const subjects = [oursSubject(build, calls, HISTORY), peerSubject(calls, HISTORY)];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const load0 = os.loadavg();

  // sizes, at this history and at others (the size grows with the history a turn carries)
  const sizes = new Map<string, number>();
  for (const s of subjects) sizes.set(s.name, await sizeOf(s));
  const historyRows: string[] = [];
  for (const h of [0, HISTORY, 200]) {
    const [a, b] = await Promise.all([sizeOf(oursSubject(build, calls, h)), sizeOf(peerSubject(calls, h))]);
    historyRows.push(`| ${h} | ${a.toLocaleString('en')} | ${b.toLocaleString('en')} | ${(b / a).toFixed(2)} |`);
  }

  // warm-up, then interleaved samples
  for (const s of subjects) await sample(s, TURNS);
  const results = new Map<string, Record<Phase, number>[]>(subjects.map((s) => [s.name, []]));
  for (let run = 0; run < RUNS; run++) {
    const order = run % 2 === 0 ? subjects : [...subjects].reverse();
    for (const s of order) results.get(s.name)!.push(await sample(s, TURNS));
    log(`sample ${run + 1}/${RUNS}`);
  }
  const med = (name: string, phase: Phase) => median(results.get(name)!.map((r) => r[phase]));
  const load1 = os.loadavg();

  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  const ours = results.get('ours')!;
  const theirs = results.get('openai-agents')!;
  const parkResume = (r: Record<Phase, number>) => r.park + r.resume;
  /** The median over the samples of theirs ÷ ours, each pair measured back to back. */
  const paired = (of: (r: Record<Phase, number>) => number) => median(ours.map((r, k) => of(theirs[k]) / of(r)));
  const rows: [string, number, number, number][] = [
    ['snapshot size (bytes)', sizes.get('ours')!, sizes.get('openai-agents')!, sizes.get('openai-agents')! / sizes.get('ours')!],
    ['run to park (CPU µs/turn)', med('ours', 'runToPark'), med('openai-agents', 'runToPark'), paired((r) => r.runToPark)],
    ['park: serialize (CPU µs/turn)', med('ours', 'park'), med('openai-agents', 'park'), paired((r) => r.park)],
    ['JSON.parse alone (CPU µs/turn)', med('ours', 'parse'), med('openai-agents', 'parse'), paired((r) => r.parse)],
    ['restore: parse + check, nothing run (CPU µs/turn)', med('ours', 'restore'), med('openai-agents', 'restore'), paired((r) => r.restore)],
    ['resume: parse + approve + run to done (CPU µs/turn)', med('ours', 'resume'), med('openai-agents', 'resume'), paired((r) => r.resume)],
    ['park + resume (CPU µs/turn)', median(ours.map(parkResume)), median(theirs.map(parkResume)), paired(parkResume)],
  ];
  const out: string[] = [];
  out.push(
    `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}; load average ${load0.map((l) => l.toFixed(2)).join(' ')} at start, ${load1
      .map((l) => l.toFixed(2))
      .join(' ')} at the end; ${CALLS} calls (the last needs an approval), ${HISTORY} history messages; ${RUNS} samples × ${TURNS} turns per system, interleaved${hasGc() ? '' : ' (no --expose-gc: garbage not collected between phases)'}.`,
  );
  out.push('');
  out.push('| per turn | ours (TurnSnapshot + JSON) | OpenAI Agents JS 0.14.3 (RunState) | theirs ÷ ours (median of paired samples) |');
  out.push('|---|---|---|---|');
  for (const [label, a, b, ratio] of rows) {
    const bytes = label.startsWith('snapshot');
    out.push(`| ${label} | ${bytes ? a.toLocaleString('en') : fmt(a)} | ${bytes ? b.toLocaleString('en') : fmt(b)} | ${ratio.toFixed(2)} |`);
  }
  out.push('');
  out.push(`Snapshot size by history length (${CALLS} calls):`);
  out.push('');
  out.push('| history messages | ours (bytes) | OpenAI Agents JS (bytes) | theirs ÷ ours |');
  out.push('|---|---|---|---|');
  out.push(...historyRows);
  out.push('');
  out.push(`Spread (min–max of the samples, CPU µs/turn): ${subjects
    .map((s) => `${s.name}: ${PHASES.map((p) => {
      const v = results.get(s.name)!.map((r) => r[p]);
      return `${p} ${fmt(Math.min(...v))}–${fmt(Math.max(...v))}`;
    }).join(', ')}`)
    .join('; ')}.`);
  console.log(out.join('\n'));
}

if (process.argv.includes('--build')) {
  const outDir = process.argv[process.argv.indexOf('--build') + 1];
  await buildInThisProcess(resolve(outDir));
} else {
  await main();
}
