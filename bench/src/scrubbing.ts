import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDir, repoRoot } from './build-ours.js';
import { median } from './measure.js';
import { loadOurs } from './systems/ours.js';

/**
 * What `scrubCredentials` costs per character of text as tools return it: this repository's own
 * files (source code, prose, a lock file) and the worst case, scrub-rules.ts (a rule word every
 * ~40 characters). Each build is its own tsup build, interleaved round by round; ns per
 * character, medians:
 *
 *   node --import tsx bench/src/scrubbing.ts [--rounds=15] [<src dir> …]   (default: src)
 *
 * Every tool result is scrubbed whole for its `tool-result` event (execute/slot-result.ts), so
 * this cost is paid per call by an agent whose tools return files or pages (bench/RESULTS.md,
 * "Session 19").
 */
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 15);
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (dirs.length === 0) dirs.push(join(repoRoot, 'src'));
const builds = [];
for (const [k, dir] of dirs.entries()) builds.push((await loadOurs(false, dir, `${buildDir}-scrubbing-${k}`)).lib.scrubCredentials);

const files = ['src/agent/create-agent.ts', 'README.md', 'package-lock.json', 'src/results/scrub-rules.ts'];
const texts = files.map((file) => readFileSync(join(repoRoot, file), 'utf8'));
/** Scrubs `text` until ~20 ms have passed; ns per character. */
function timed(scrub: (text: string) => string, text: string): number {
  const reps = Math.max(1, Math.round(2_000_000 / text.length));
  const start = process.hrtime.bigint();
  for (let r = 0; r < reps; r++) scrub(text);
  return Number(process.hrtime.bigint() - start) / (reps * text.length);
}
const samples = builds.map(() => texts.map(() => [] as number[]));
for (const scrub of builds) for (const text of texts) timed(scrub, text); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const [b, scrub] of builds.entries()) for (const [t, text] of texts.entries()) samples[b][t].push(timed(scrub, text));
}
console.log(`| text | characters | ${dirs.map((d) => `${d}: ns/char`).join(' | ')} |\n|---|---:|${dirs.map(() => '---:').join('|')}|`);
for (const [t, file] of files.entries()) {
  console.log(`| ${file} | ${texts[t].length} | ${builds.map((_, b) => median(samples[b][t]).toFixed(2)).join(' | ')} |`);
}
