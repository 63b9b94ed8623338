import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * What the two per-call looks at a call's arguments cost, by argument shape, in ns per object:
 * `canonicalJson` (the dedup and loop-detector key) and `shownValue` (the observers' and events'
 * copy), from the sources through tsx (no build), or from another copy of `src/`:
 *
 *   node --import tsx bench/src/argument-shapes.ts [--src=/tmp/before/src] [--rounds=2000]
 *
 * `{"i":k}` is the workloads' default: one key, sorted, short. The schema-order shapes are what
 * tools send (`{path, content}`, `{query, limit}`): keys out of sorted order, strings of 8+
 * characters that the scrubber reads (bench/RESULTS.md, "Session 26"). Each set runs in a process
 * of its own (`--set=<k>`), so no set's type feedback slows another's; run it a few times, the
 * figures move by ~10 % from one process to the next.
 */
const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const src = resolve(option('src', 'src'));
const rounds = Number(option('rounds', '2000'));
const { canonicalJson } = (await import(pathToFileURL(`${src}/results/canonical-json.ts`).href)) as { canonicalJson: (v: unknown) => string };
const { shownValue } = (await import(pathToFileURL(`${src}/results/shown-value.ts`).href)) as { shownValue: <T>(v: T, max: number) => T };

const sets: Record<string, readonly string[]> = {
  '{"i":k}': ['{"i":7}'],
  'sorted keys': ['{"a":1,"b":"xy"}', '{"cmd":"ls","cwd":"/","env":0}', '{"file":"src/a.ts","line":3}'],
  'schema order': ['{"path":"src/module-7.ts","i":7}', '{"path":"src/a.ts","content":"hello world"}', '{"query":"select * from t","limit":10}', '{"url":"https://example.com/x","timeout":5}'],
};
const looks: Record<string, (o: object) => unknown> = { canonicalJson, shownValue: (o) => shownValue(o, 50_000) };

const only = option('set', '');
if (only === '') {
  console.log(`sources: ${src}\n\n| arguments | ${Object.keys(looks).join(' ns | ')} ns |\n|---|${Object.keys(looks).map(() => '---:|').join('')}`);
  for (let k = 0; k < Object.keys(sets).length; k++) {
    const args = [...process.execArgv, fileURLToPath(import.meta.url), `--set=${k}`, `--src=${src}`, `--rounds=${rounds}`];
    process.stdout.write(execFileSync(process.execPath, args, { encoding: 'utf8' }));
  }
} else {
  const [name, texts] = Object.entries(sets)[Number(only)];
  // 1,000 distinct objects, as a batch's calls would be
  const objects: object[] = [];
  for (let r = 0; objects.length < 1000; r++) for (const t of texts) objects.push(JSON.parse(t.replace('7', String(r))) as object);
  const cells: string[] = [];
  for (const look of Object.values(looks)) {
    let sink = 0;
    for (let r = 0; r < rounds / 4; r++) for (const o of objects) sink += look(o) === undefined ? 0 : 1;
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < rounds; r++) for (const o of objects) sink += look(o) === undefined ? 0 : 1;
    const ns = Number(process.hrtime.bigint() - t0) / (rounds * objects.length);
    if (sink === 0) throw new Error('no look answered'); // the results are used: nothing for the compiler to drop
    cells.push(ns.toFixed(1));
  }
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
