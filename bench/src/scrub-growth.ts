import { scrubCredentials } from '../../src/index.js';

/**
 * `node --import tsx bench/src/scrub-growth.ts [--runs=5]`: how scrubbing's time grows on texts
 * built to make a regular expression backtrack (runs of glued token prefixes that never
 * complete). Each family is timed at n and 16n characters (CPU time, the smallest of `runs`);
 * linear work shows a ratio near 16, quadratic near 256. A measurement, not a test: the test
 * suite decides nothing on time, and a regular expression's own steps cannot be counted.
 */
const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 5);

const FAMILIES: [string, (n: number) => string][] = [
  ['xeyJ1 repeated', (n) => 'xeyJ1'.repeat(n / 5)],
  ['xsk-a1 repeated', (n) => 'xsk-a1'.repeat(n / 6)],
  ['_ghp_1 repeated', (n) => '_ghp_1'.repeat(n / 6)],
  ['JWT-like heads, then one long word', (n) => `${'eyJ1abcdefgh.'.repeat(Math.ceil(n / 130))}${'a'.repeat(Math.ceil(n / 2))}`],
];

function cpuMs(text: string): number {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const start = process.cpuUsage();
    scrubCredentials(text);
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const lines = ['| text | 6,000 chars, ms | 96,000 chars, ms | ratio (16 = linear) |', '|---|---:|---:|---:|'];
for (const [name, make] of FAMILIES) {
  const small = cpuMs(make(6_000));
  const large = cpuMs(make(96_000));
  lines.push(`| ${name} | ${small.toFixed(2)} | ${large.toFixed(2)} | ${(large / Math.max(small, 0.001)).toFixed(1)} |`);
}
console.log(lines.join('\n'));
