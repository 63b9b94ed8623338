import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { serverFloor, serverOurs } from './server-systems.js';
import { IterationClock, Samples } from './server-workload.js';
import { loadOurs } from './systems/ours.js';

/**
 * What one server-regime turn keeps alive while it waits (what every young-generation collection
 * copies): C conversations, a heap snapshot with none of their turns running and one with all of
 * them in flight (5 ms in: the second model call), and the difference per turn, by kind of object:
 *
 *   node --expose-gc --import tsx bench/src/inflight-retained.ts [C=1000] [--floor] [--src=<dir>] [--at=5] [--names] [--props] [--held] [--top=15]
 *
 * `--at=ms` takes the busy snapshot that long after the turns start; `--names` splits closures
 * by function name (an anonymous one by its script and line), so the rows say which closures a
 * waiting turn holds; `--props` splits plain objects (`Object`) by their property names; `--held`
 * splits arrays (`Array` and the backing stores, `array`) by what holds them: `<holder>.<property>`.
 */
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const c = Number(args[0] ?? 1000);
const src = process.argv.find((a) => a.startsWith('--src='))?.slice(6);
const at = Number(process.argv.find((a) => a.startsWith('--at='))?.slice(5) ?? 5);
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 15);
const byName = process.argv.includes('--names');
const byProps = process.argv.includes('--props');
const byHolder = process.argv.includes('--held');
const system = process.argv.includes('--floor') ? serverFloor : serverOurs(await loadOurs(false, src));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('needs node --expose-gc');
const prepared = await system.prepare();
const conversations = Array.from({ length: c }, (_, k) => prepared.conversation(`conversation-${k}`, new IterationClock(new Samples())));
for (let r = 0; r < 3; r++) await Promise.all(conversations.map((conversation) => conversation.turn()));

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
  locations?: number[];
}

/** Bytes and counts by kind of object ("closure", "object Foo", ...) in a heap snapshot. */
function kinds(file: string): Map<string, { bytes: number; count: number }> {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  rmSync(file);
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const out = new Map<string, { bytes: number; count: number }>();
  const lines = new Map<number, string>(); // a closure's node index → its function's line:column (scripts by id)
  const loc = byName ? (s.locations ?? []) : [];
  for (let l = 0; l < loc.length; l += 4) lines.set(loc[l], `script ${loc[l + 1]} ${loc[l + 2] + 1}:${loc[l + 3] + 1}`);
  const edgeCount = fields.indexOf('edge_count');
  const edgeFields = s.snapshot.meta.edge_fields.length;
  const [edgeType, edgeName] = ['type', 'name_or_index'].map((f) => s.snapshot.meta.edge_fields.indexOf(f));
  const property = s.snapshot.meta.edge_types[0].indexOf('property');
  const holders = byHolder ? heldBy(s) : new Map<number, string>();
  for (let i = 0, e = 0; i < s.nodes.length; e += s.nodes[i + edgeCount] * edgeFields, i += fields.length) {
    const t = types[s.nodes[i + type]];
    const named = t === 'object' || t === 'hidden' || (byName && t === 'closure');
    let key = named ? `${t} ${s.strings[s.nodes[i + name]] || lines.get(i) || ''}` : t;
    if (byProps && key === 'object Object') {
      const props: string[] = [];
      for (let k = e; k < e + s.nodes[i + edgeCount] * edgeFields; k += edgeFields) {
        if (s.edges[k + edgeType] === property) props.push(s.strings[s.edges[k + edgeName]]);
      }
      key += ` {${props.join(', ')}}`;
    }
    if (byHolder && (key === 'object Array' || t === 'array')) key += ` ${holders.get(i) ?? '?'}`;
    const k = out.get(key) ?? { bytes: 0, count: 0 };
    k.bytes += s.nodes[i + size];
    k.count++;
    out.set(key, k);
  }
  return out;
}

/**
 * For each node, the first edge that points to it, as `<holder's name>.<edge name>`; a backing
 * store held by an Array's `elements` is named after what holds that Array, `….elements`.
 */
function heldBy(s: Snapshot): Map<number, string> {
  const { node_fields: nodeFields, edge_fields: edgeFields, edge_types: edgeTypes } = s.snapshot.meta;
  const [name, edgeCount] = ['name', 'edge_count'].map((f) => nodeFields.indexOf(f));
  const [edgeType, edgeName, toNode] = ['type', 'name_or_index', 'to_node'].map((f) => edgeFields.indexOf(f));
  const first = new Map<number, { from: number; label: string }>();
  for (let i = 0, e = 0; i < s.nodes.length; i += nodeFields.length) {
    const holder = s.strings[s.nodes[i + name]].slice(0, 30);
    for (let end = e + s.nodes[i + edgeCount] * edgeFields.length; e < end; e += edgeFields.length) {
      const to = s.edges[e + toNode];
      if (first.has(to)) continue;
      const kind = edgeTypes[0][s.edges[e + edgeType]];
      const n = s.edges[e + edgeName];
      first.set(to, { from: i, label: `${holder}.${kind === 'element' || kind === 'hidden' ? `[${n}]` : s.strings[n]}` });
    }
  }
  const out = new Map<number, string>();
  for (const [to, { from, label }] of first) {
    out.set(to, label === 'Array.elements' ? `${first.get(from)?.label ?? '?'}.elements` : label);
  }
  return out;
}

gc();
const idle = kinds(writeHeapSnapshot(join(tmpdir(), `inflight-idle-${process.pid}.heapsnapshot`)));
const all = Promise.all(conversations.map((conversation) => conversation.turn()));
await new Promise((resolve) => setTimeout(resolve, at));
gc();
const busy = kinds(writeHeapSnapshot(join(tmpdir(), `inflight-busy-${process.pid}.heapsnapshot`)));
await all;
const rows = [...busy].map(([key, b]) => ({ key, bytes: (b.bytes - (idle.get(key)?.bytes ?? 0)) / c, count: (b.count - (idle.get(key)?.count ?? 0)) / c }));
const total = rows.reduce((sum, r) => sum + r.bytes, 0);
console.log(`${system.name}, C=${c}: ${total.toFixed(0)} B kept alive per turn in flight`);
for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, top)) {
  if (r.bytes >= 20) console.log(`${r.bytes.toFixed(0).padStart(7)} B  ${r.count.toFixed(1).padStart(5)} × ${r.key}`);
}
