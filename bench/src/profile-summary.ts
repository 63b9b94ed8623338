import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * Summarizes a `.cpuprofile` (from `node --cpu-prof`): the functions with the most self time,
 * and the files (library sources vs dependencies) where the time goes.
 *
 * Usage: `npx tsx bench/src/profile-summary.ts <file.cpuprofile> [top]`
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function summarize(path: string, top = 30): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const self = new Map<number, number>();
  for (let k = 0; k < profile.samples.length; k++) {
    const id = profile.samples[k];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[k] ?? 0));
  }
  // The profiler's own bookkeeping (the inspector session that stops it) is not our cost.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const isProfiler = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (byId.get(at)?.callFrame.url === 'node:inspector') return true;
    }
    return false;
  };
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const t = self.get(node.id) ?? 0;
    if (t === 0 || isProfiler(node.id)) continue;
    total += t;
    const file = sourceOf(node.callFrame.url, node.callFrame.lineNumber);
    const fn = `${node.callFrame.functionName || '(anonymous)'}  ${file}${file.endsWith('.ts') ? '' : `:${node.callFrame.lineNumber + 1}`}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
    byFile.set(file, (byFile.get(file) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
  const lines = [`total sampled: ${(total / 1000).toFixed(0)} ms`, '', 'self time by function:'];
  for (const [fn, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`${pct(t)}  ${fn}`);
  lines.push('', 'self time by file:');
  for (const [file, t] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`${pct(t)}  ${file}`);
  return lines.join('\n');
}

const bundles = new Map<string, string[]>();

/**
 * For a tsup bundle (the bench's build of the library), the source file a line came from: tsup
 * marks each module with a `// src/...` comment. Other files keep their short path.
 *
 * @example
 * ```ts
 * sourceOf(node.callFrame.url, node.callFrame.lineNumber); // 'src/execute/run-tool.ts'
 * ```
 */
export function sourceOf(url: string, line: number): string {
  const short = shortUrl(url);
  if (!short.startsWith('.cache/rx-tool-loop/')) return short;
  let marks = bundles.get(url);
  if (!marks) {
    marks = [];
    let current = short;
    for (const text of readFileSync(new URL(url), 'utf8').split('\n')) {
      const m = /^\/\/ (?:\S*\/)?(src\/\S+\.ts)$/.exec(text);
      if (m) current = m[1];
      marks.push(current);
    }
    bundles.set(url, marks);
  }
  return marks[line] ?? short;
}

function shortUrl(url: string): string {
  if (!url) return '(native)';
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm + 'node_modules/'.length);
  return path.startsWith('/') ? relative(process.cwd(), path) : path;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/src/profile-summary.ts <file.cpuprofile> [top]');
    process.exit(1);
  }
  console.log(summarize(file, top ? Number(top) : 30));
}
