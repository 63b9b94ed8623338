import { annotated, categoryOf, PerfMap } from './instruction-categories.js';

/**
 * Instructions by function from runs that `instructions.ts --by-category --keep=<dir>` kept: one
 * run's functions with the most instructions of their own, or, given two runs, what each function
 * gained or lost from the first to the second (two builds of `src/`, say). JIT code is named
 * through each run's V8 perf map; a bundle's line numbers are left out of the names, so the same
 * function of two builds lines up. `--per` divides the counts (the turns or calls the run
 * counted: turns × C, × N with `--batch`):
 *
 *   node --import tsx bench/src/instructions-diff.ts <callgrind file> [<other callgrind file>] --per=2000 [--top=40]
 *
 * Each callgrind file's map is the file's name with `.map` added, as `--keep` leaves them.
 * Inlined code counts where it was inlined (bench/RESULTS.md, "Session 15").
 */
const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (files.length < 1 || files.length > 2) throw new Error('usage: instructions-diff.ts <callgrind file> [<other callgrind file>] --per=<turns or calls> [--top=40]');
const per = Number(option('per', '1'));
const top = Number(option('top', '40'));

/** Each function's category (instruction-categories.ts), by the name `byFunction` gives it. */
const categories = new Map<string, string>();

/** Own instructions per unit, by function name (a bundle's `file:line:column` cut to the file). */
function byFunction(file: string): Map<string, number> {
  const names = new PerfMap(`${file}.map`);
  const out = new Map<string, number>();
  for (const { instructions, fn } of annotated(file, false)) {
    const full = names.name(fn);
    const name = full
      .replace(/^JS:[~^*+']*/, '')
      .replace(/\/rx-tool-loop[^/]*\//, '/rx-tool-loop/')
      .replace(/chunk-[A-Z0-9]+\.js/, 'chunk.js')
      .replace(/(\.m?js):\d+:\d+$/, '$1');
    out.set(name, (out.get(name) ?? 0) + instructions / per);
    if (!categories.has(name)) categories.set(name, categoryOf(full));
  }
  return out;
}

const first = byFunction(files[0]);
const fmt = (n: number) => n.toFixed(0).padStart(8);
if (files.length === 1) {
  const total = [...first.values()].reduce((a, n) => a + n, 0);
  console.log(`${fmt(total)} in all\n`);
  for (const [name, n] of [...first].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(n)}  ${(categories.get(name) ?? '').padEnd(42)} ${name}`);
} else {
  const second = byFunction(files[1]);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, n) => a + n, 0);
  console.log(`${fmt(sum(first))} → ${fmt(sum(second))} in all\n`);
  const names = new Set([...first.keys(), ...second.keys()]);
  const rows = [...names].map((name) => [name, (second.get(name) ?? 0) - (first.get(name) ?? 0)] as const);
  for (const [name, d] of rows.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, top)) console.log(`${fmt(d)}  ${name}`);
}
