import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './build-ours.js';
import { droppingTracer } from './dropping-tracer.js';
import { median } from './measure.js';
import { roundOrder } from './overhead.js';
import { loadOurs, ours, type OursOptions } from './systems/ours.js';
import type { PreparedSystem } from './workload.js';

/**
 * What each way of configuring an agent costs per call: our system (systems/ours.ts: cap 8, an
 * observer and every guard on) as it is, and with one thing a user adds — a deadline on every
 * call, a tool that answers with an Observable (with and without a deadline), a synchronous or
 * an async `beforeToolCall` hook, an ingress in each turn's input, a logger at level info (pino's interface; it drops every
 * line, so what is measured is ours), an OpenTelemetry tracer (the SDK's BasicTracerProvider,
 * spans dropped at their end), a tool that answers with a source file (8 KB of code, scrubbed
 * for the `tool-result` event), calls whose arguments carry that file, 50 more tools defined.
 * Interleaved in one process, CPU µs per call, medians:
 *
 *   node --expose-gc --import tsx bench/src/configurations.ts [--sizes=3,1000] [--rounds=15] [--src=<dir>]
 *
 * Each of these took a path of its own that cost up to 3.6x the plain call (bench/RESULTS.md,
 * "Session 18"), the file in a result or the arguments up to 150x ("Session 19"); the table shows
 * what each adds now.
 */
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const sizes = (option('sizes') ?? '3,1000').split(',').map(Number);
const rounds = Number(option('rounds') ?? 15);
const loaded = await loadOurs(false, option('src'));

const drop = (): void => {};
const infoLogger = { isLevelEnabled: (level: string) => level !== 'debug', debug: drop, info: drop, warn: drop, error: drop, child: () => infoLogger };
const tracer = droppingTracer();

/** What a coding agent's tool answers: one of this repository's own source files. */
const sourceFile = readFileSync(join(repoRoot, 'src', 'agent', 'create-agent.ts'), 'utf8');

const configurations: [string, Partial<OursOptions>][] = [
  ['as it is', {}],
  ['a deadline (toolTimeoutMs)', { toolTimeoutMs: 60_000 }],
  ['a tool answering with an Observable', { observableTool: true }],
  ['… and a deadline', { observableTool: true, toolTimeoutMs: 60_000 }],
  ['an async beforeToolCall hook', { asyncHook: true }],
  ["the caller's ingress (a channel)", { ingress: true }],
  ['a signal (an AbortController per turn, never aborted)', { signal: true }],
  ['a logger at level info', { config: { logger: infoLogger } }],
  ['an OpenTelemetry tracer', { config: { tracer } }],
  [`a tool answering with a source file (${(sourceFile.length / 1024).toFixed(1)} KB)`, { toolOutput: sourceFile }],
  [`calls whose arguments carry that file`, { argsText: sourceFile }],
  ['50 more tools defined (not called)', { moreTools: 50 }],
];

console.log(`| configuration | ${sizes.map((n) => `N=${n}: µs/call | ÷ as it is`).join(' | ')} |\n|---|${sizes.map(() => '---:|---:').join('|')}|`);
const rows = new Map<string, string[]>(configurations.map(([label]) => [label, []]));
for (const n of sizes) {
  const prepared: PreparedSystem[] = [];
  for (const [label, extra] of configurations) prepared.push(await ours(loaded, { label, maxParallelTools: 8, ...extra }).prepare(n));
  const turns = Math.max(1, Math.round(3000 / n)); // ~3,000 calls per sample
  for (let w = 0; w < 20; w++) for (const p of prepared) for (let t = 0; t < turns; t++) await p.turn();
  const cpu = prepared.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    // a shuffled order per round: a configuration whose turns leave much garbage (8 KB arguments
    // at N=1000) no longer always hands its collections to the same next one
    for (const k of roundOrder(prepared.length, r)) {
      const p = prepared[k];
      const c0 = process.cpuUsage();
      for (let t = 0; t < turns; t++) await p.turn();
      const c = process.cpuUsage(c0);
      cpu[k].push((c.user + c.system) / (turns * n));
    }
  }
  const plain = cpu[0];
  for (const [k, [label]] of configurations.entries()) {
    const paired = median(cpu[k].map((v, r) => v / plain[r]));
    rows.get(label)!.push(`${median(cpu[k]).toFixed(2)} | ${k === 0 ? '' : `${paired.toFixed(2)}x`}`);
  }
}
for (const [label, cells] of rows) console.log(`| ${label} | ${cells.join(' | ')} |`);
