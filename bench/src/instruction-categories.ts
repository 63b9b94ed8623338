import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Where a callgrind run's instructions went, by kind of work (`instructions.ts --by-category`):
 * each function's own instructions (callgrind_annotate's self cost), the JIT's code named through
 * the `--perf-basic-prof` map the child wrote, then put in one of the categories below by its
 * name and file. A function's count includes what V8 inlined into it, so the split is
 * approximate: a stage that inlines the next stage's logic counts it as plumbing, and the other
 * way round. It answers "how much could a change of this kind take off at most?".
 */
export function instructionsByCategory(callgrindOut: string, perfMap: string, codeAtLeast: number): CategorySplit {
  const names = new PerfMap(perfMap);
  const totals = new Map<string, number>();
  const seen = new Set<number>();
  let bytes = 0;
  for (const { instructions, fn } of annotated(callgrindOut, false)) {
    const category = categoryOf(names.name(fn));
    totals.set(category, (totals.get(category) ?? 0) + instructions);
    const code = instructions >= codeAtLeast ? names.code(fn) : undefined;
    if (code && !seen.has(code.start)) {
      seen.add(code.start);
      bytes += code.bytes;
    }
  }
  return { categories: totals, code: { functions: seen.size, bytes } };
}

/** A run's instructions by category, and the JIT code it went through. */
export interface CategorySplit {
  readonly categories: Map<string, number>;
  /**
   * The optimized and baseline code that ran at least `codeAtLeast` instructions: how many
   * functions, how many bytes. At N=1000 a call of ours runs through ~100 KB of it, three times a
   * 32 KB instruction cache (bench/RESULTS.md, "Session 17").
   */
  readonly code: { readonly functions: number; readonly bytes: number };
}

/**
 * Each function of `callgrind_annotate`'s report, every function listed: its instructions (its own,
 * or with all it called when `inclusive`) and its name as callgrind gives it (a JIT address as
 * `0x…`; a recursive entry with a suffix, `'2`).
 */
export function annotated(callgrindOut: string, inclusive: boolean): { instructions: number; fn: string }[] {
  // instructions only, also when the run simulated caches (--cache-sim adds eight more events)
  const report = execFileSync('callgrind_annotate', [`--inclusive=${inclusive ? 'yes' : 'no'}`, '--show=Ir', '--threshold=100', callgrindOut], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const out: { instructions: number; fn: string }[] = [];
  for (const line of report.split('\n')) {
    // "  1,234,567 (12.3%)  file:function [object]"
    const m = /^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S*?):(.+?)(?: \[.*\])?$/.exec(line);
    if (m) out.push({ instructions: Number(m[1].replaceAll(',', '')), fn: m[3].trim() });
  }
  return out;
}

/**
 * The JIT's code by address, from V8's `--perf-basic-prof` map (`/tmp/perf-<pid>.map`). V8 reuses
 * the memory of collected code, so an address can be listed more than once: the newest entry
 * (the map's last) names it, the code of the counted turns rather than of the warm-up.
 */
export class PerfMap {
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #names: string[] = [];
  /** Each entry's line in the map: the larger, the newer. */
  readonly #lines: number[] = [];
  /** The largest end among the entries up to each one (by start): where a backward scan can stop. */
  readonly #reach: number[] = [];

  constructor(file: string) {
    const entries = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line, at) => {
        const [start, size, ...name] = line.split(' ');
        return { start: parseInt(start, 16), size: parseInt(size, 16), name: name.join(' '), at };
      })
      .sort((a, b) => a.start - b.start);
    let reach = 0;
    for (const e of entries) {
      this.#starts.push(e.start);
      this.#ends.push(e.start + e.size);
      this.#names.push(e.name);
      this.#lines.push(e.at);
      reach = Math.max(reach, e.start + e.size);
      this.#reach.push(reach);
    }
  }

  /** callgrind's name for a function, with JIT addresses (`0x…`, `'2` for recursion) named. */
  name(fn: string): string {
    const at = this.#entryOf(fn);
    return at >= 0 ? this.#names[at] : fn.replace(/'\d+$/, '');
  }

  /** The size of the JIT code that holds callgrind's `fn` (a `0x…` address), with its start as a key. */
  code(fn: string): { start: number; bytes: number } | undefined {
    const at = this.#entryOf(fn);
    return at >= 0 ? { start: this.#starts[at], bytes: this.#ends[at] - this.#starts[at] } : undefined;
  }

  /** The entry holding callgrind's `fn` when it is a JIT address, or -1. */
  #entryOf(fn: string): number {
    const m = /^0x([0-9a-f]+)(?:'\d+)?$/.exec(fn);
    return m ? this.#index(parseInt(m[1], 16)) : -1;
  }

  /** The newest entry holding `address`, or -1. */
  #index(address: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.#starts[mid] <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    let found = -1;
    for (let k = hi; k >= 0 && this.#reach[k] > address; k--) {
      if (address < this.#ends[k] && (found < 0 || this.#lines[k] > this.#lines[found])) found = k;
    }
    return found;
  }
}

// Our functions that move values between stages, subscribe and tear down: the graph's own cost.
const PLUMBING = new Set([
  'subscribeStage', 'unsubscribe', 'add', 'adopt', 'keep', 'remove', 'lean', 'runCollecting', 'runTeardown',
  '_next', '_complete', '_error', 'subscribe', 'pipe', 'forward', 'innerDone', 'sourceNext', 'sourceComplete',
  'onValue', 'openContinue', 'openItems', 'openMerge', 'openConcat', 'openExpansion', 'startNext',
  'checkComplete', 'drain', 'run', 'stopAll', 'stopInner', '_StageObservable', '_StageSubscriber', '_InnerSubscriber',
]);
// The default guards: dedup, the loop detector, credential scrubbing.
const GUARDS = new Set(['observe', '_LoopDetector', 'checkRound', 'check', 'pingPongCycles', 'dedupGuard', 'argsKey', 'flatSortedJson', 'recordArguments', 'scrubCredentials']);

/** The category of one named function (a JIT name is `JS:*name file:line:column`). */
export function categoryOf(name: string): string {
  const js = /^(?:JS:)?[~^*+']*(\S*) (\S+:\d+:\d+)$/.exec(name);
  if (js) {
    const fn = (js[1].split('.').pop() ?? '').replace(/\d+$/, ''); // the bundle's sourceNext2 is a sourceNext
    const file = js[2];
    if (file.includes('/rxjs/')) return 'plumbing: RxJS';
    if (file.includes('/zod/') || (fn === 'check' && file.includes('/chunk-'))) return 'zod'; // defineTool's check wraps safeParse
    if (file.startsWith('node:')) return 'Node: timers, promises, crypto';
    if (!file.includes('/rx-tool-loop')) return 'bench harness';
    if (PLUMBING.has(fn)) return 'plumbing: our stages';
    if (GUARDS.has(fn) && !file.includes('/chunk-')) return 'guards: dedup, loop detector, scrubbing';
    return 'ours: everything else';
  }
  if (name.startsWith('RegExp')) return 'guards: dedup, loop detector, scrubbing';
  if (/(^s_|Builtins_)(Call|CallFunction)_/.test(name)) return 'plumbing: generic calls';
  if (/(^s_|Builtins_)\w*IC_Megamorphic/.test(name)) return 'megamorphic property access';
  if (/Scaveng|Heap::|Sweep|MarkCompact|Marking|Evacuat|GCTracer|heap::|MemoryAllocator|RememberedSet|SlotSet/.test(name)) return 'V8: garbage collection';
  if (/Json/.test(name)) return 'JSON.parse';
  if (/compiler::|Compile|Maglev|maglev|turboshaft|Parser|Zone|Bytecode|Scanner|Deoptimiz|Turbofan|RegisterAllocat|InstructionSelect/.test(name)) return 'V8: compiling';
  if (/Promise|Microtask|Async/.test(name)) return 'promises';
  if (/Date|Time::|TimeCurrentMillis|ToJsTime|HeapNumber/.test(name)) return 'clock';
  return 'V8: allocation, other builtins and runtime';
}
