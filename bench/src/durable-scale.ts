import { lastValueFrom } from 'rxjs';
import pg from 'pg';
import PgBoss from 'pg-boss';
import * as lib from '../../src/index.js';
import * as testing from '../../src/testing/index.js';
import { durableAgent, openSqlTurnStore, poolDriver, type DurableAgent, type TurnStore } from '../../src/durable/index.js';
import { durableBenchAgent } from './durable-bench-agent.js';
import { openBenchDatabase } from './durable-database.js';

/**
 * What parked turns take on disk (issue 50, item 7). On a throwaway database
 * (`openBenchDatabase`: PostgreSQL at 127.0.0.1:5432, else PGlite), it parks `--turns` turns of
 * the durable bench's agent (one call that needs an approval), each in a conversation of its own
 * whose stored history has `--history` messages of ~190 characters, then reads each table's and each index's size
 * (`pg_relation_size`, `pg_total_relation_size`) and rows: as written (after VACUUM ANALYZE) and
 * compacted (VACUUM FULL). Then it copies the parked rows in SQL up to `--clone-to` turns (same
 * bytes, new ids of the same length) and reads the sizes again; then the copies go, every
 * parked turn is decided and run to its end, and the finished turns are pruned. It also sends
 * and completes `--turns` pg-boss jobs, the row a turn's job leaves until pg-boss archives it.
 *
 *   node --import tsx bench/src/durable-scale.ts [--turns=10000] [--clone-to=100000] [--history=0] [--concurrency=16]
 *
 * Not a test: it prints markdown tables and never fails on a figure.
 */
const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const TURNS = option('turns', 10_000);
const CLONE_TO = option('clone-to', 100_000);
const HISTORY = option('history', 0);
const CONCURRENCY = option('concurrency', 16);
const log = (line: string) => process.stderr.write(`${line}\n`);

interface TableSize {
  readonly name: string;
  readonly rows: number;
  /** Heap and TOAST (with its index), bytes. */
  readonly data: number;
  readonly indexes: readonly { readonly name: string; readonly bytes: number }[];
  readonly total: number;
}

async function sizes(pool: pg.Pool): Promise<TableSize[]> {
  const tables = await pool.query<{ name: string; data: string; total: string }>(
    `SELECT c.relname AS name, (pg_total_relation_size(c.oid) - pg_indexes_size(c.oid))::text AS data, pg_total_relation_size(c.oid)::text AS total
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname LIKE 'rtl\\_%' ORDER BY c.relname`,
  );
  const indexes = await pool.query<{ table: string; name: string; bytes: string }>(
    `SELECT t.relname AS table, i.relname AS name, pg_relation_size(i.oid)::text AS bytes
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND t.relname LIKE 'rtl\\_%' ORDER BY i.relname`,
  );
  const out: TableSize[] = [];
  for (const t of tables.rows) {
    const rows = Number((await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${t.name}`)).rows[0].n);
    const own = indexes.rows.filter((i) => i.table === t.name).map((i) => ({ name: i.name, bytes: Number(i.bytes) }));
    out.push({ name: t.name, rows, data: Number(t.data), indexes: own, total: Number(t.total) });
  }
  return out;
}

const kb = (bytes: number) => (bytes / 1024).toLocaleString('en', { maximumFractionDigits: 1 });
const per = (bytes: number, turns: number) => Math.round(bytes / turns).toLocaleString('en');

/** A table of sizes; "bytes a turn" is over what the empty tables took (`empty`), so it leaves out their first pages. */
function table(title: string, turns: number, list: readonly TableSize[], empty: readonly TableSize[]): string {
  const lines = [`### ${title}`, '', `| table | rows | rows a turn | data (KB) | indexes (KB) | total (KB) | bytes a turn |`, '|---|---:|---:|---:|---:|---:|---:|'];
  const before = (name: string) => empty.find((e) => e.name === name)?.total ?? 0;
  for (const t of list.filter((t) => t.rows > 0 && t.name !== 'rtl_migration')) {
    const idx = t.indexes.reduce((s, i) => s + i.bytes, 0);
    lines.push(`| ${t.name} | ${t.rows.toLocaleString('en')} | ${(t.rows / turns).toFixed(2)} | ${kb(t.data)} | ${kb(idx)} (${t.indexes.map((i) => `${i.name} ${kb(i.bytes)}`).join(', ')}) | ${kb(t.total)} | ${per(t.total - before(t.name), turns)} |`);
  }
  const total = list.reduce((s, t) => s + t.total, 0);
  const idx = list.reduce((s, t) => s + t.indexes.reduce((a, i) => a + i.bytes, 0), 0);
  const grown = total - empty.reduce((s, t) => s + t.total, 0);
  lines.push(`| **all ${list.length} tables** | | | ${kb(total - idx)} | ${kb(idx)} | ${kb(total)} | **${per(grown, turns)}** |`, '');
  return lines.join('\n');
}

const WORDS = ('the a to of and in for on with we they it is was be have this that report quarter notes team budget plan review meeting ' +
  'deadline client draft figures sales costs risk owner summary update next step friday monday week agreed asked sent checked moved ' +
  'open closed late early more less numbers table chart email call invoice order project release test fix issue ticket').split(' ');

/** Conversation `i`'s history: `HISTORY` messages of ~190 characters of words in a seeded random order (text compresses about as prose does). */
function historyOf(i: number): lib.ChatMessage[] {
  let seed = (i + 1) * 2_654_435_761;
  const word = () => WORDS[(seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % WORDS.length];
  return Array.from({ length: HISTORY }, (_, k) => {
    let content = '';
    while (content.length < 190) content += `${word()} `;
    return { role: k % 2 === 0 ? 'user' : 'assistant', content: content.trim() };
  });
}

/** Runs `work(i)` for i < n, `CONCURRENCY` at a time. */
async function inParallel(n: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) await work(next++);
  }));
}

/** `turns` rows of pg-boss's job table, sent and completed: what a turn's job leaves until it is archived. */
async function jobBytes(url: string, turns: number): Promise<{ bytes: number; rows: number }> {
  const boss = new PgBoss({ connectionString: url, max: 4, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    await boss.createQueue('rtl-scale', { name: 'rtl-scale', policy: 'standard' });
    const partition = `SELECT sum(pg_total_relation_size(relid))::text AS bytes FROM pg_partition_tree('pgboss.job')`;
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    const empty = Number((await admin.query<{ bytes: string }>(partition)).rows[0].bytes);
    for (let i = 0; i < turns; i += 1000) {
      await boss.insert(Array.from({ length: Math.min(1000, turns - i) }, () => ({ name: 'rtl-scale', data: { turnId: crypto.randomUUID() } })));
      const jobs = await boss.fetch('rtl-scale', { batchSize: 1000 });
      await boss.complete('rtl-scale', jobs.map((j) => j.id));
    }
    try {
      await admin.query('VACUUM ANALYZE');
      const bytes = Number((await admin.query<{ bytes: string }>(partition)).rows[0].bytes) - empty;
      const rows = Number((await admin.query<{ n: string }>(`SELECT count(*)::text AS n FROM pgboss.job WHERE name = 'rtl-scale'`)).rows[0].n);
      return { bytes, rows };
    } finally {
      await admin.end();
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/** Copies of the parked rows up to `target` turns: ids of the same length (the 9th character '_' marks a copy). */
async function cloneParked(pool: pg.Pool, turns: number, target: number): Promise<void> {
  const copy = (g: string) => `lpad(${g}::text, 8, '0') || '_' || substr(turn_id, 10)`;
  for (let g = 1; g * turns < target; g++) {
    await pool.query(
      `INSERT INTO rtl_turn SELECT ${copy('$1')}, agent, conversation_id || '_' || $1, status, input, snapshot, pending, outcome, attempt, owner, updated_at FROM rtl_turn WHERE status = 'parked' AND substr(turn_id, 9, 1) <> '_'`,
      [g],
    );
    await pool.query(`INSERT INTO rtl_event (turn_id, event) SELECT ${copy('$1')}, event FROM rtl_event WHERE substr(turn_id, 9, 1) <> '_' ORDER BY seq`, [g]);
    await pool.query(`INSERT INTO rtl_change (kind, turn_id) SELECT kind, ${copy('$1')} FROM rtl_change WHERE substr(turn_id, 9, 1) <> '_' ORDER BY id`, [g]);
    if (g % 10 === 0) log(`copies: ${((g + 1) * turns).toLocaleString('en')} turns`);
  }
}

async function main(): Promise<void> {
  const db = await openBenchDatabase();
  log(`durable scale: ${db.label}, ${TURNS} turns, history ${HISTORY}`);
  const pool = new pg.Pool({ connectionString: db.url, max: CONCURRENCY + 2 });
  pool.on('error', () => undefined);
  const out: string[] = [`## Parked turns on disk: ${db.label}, ${TURNS.toLocaleString('en')} turns, ${HISTORY} history messages`, ''];
  let store: TurnStore | undefined;
  try {
    store = await openSqlTurnStore(poolDriver(pool, db.backend === 'pglite' ? { listen: false, backend: 'pglite' } : {}));
    const empty = await sizes(pool);
    const durable: DurableAgent = durableAgent(durableBenchAgent(lib, testing), { store });
    const parked: { turnId: string; requestId: string }[] = [];
    const started = performance.now();
    await inParallel(TURNS, async (i) => {
      if (HISTORY > 0) await store!.saveHistory(`conv-${i}`, historyOf(i));
      const done = await lastValueFrom(durable.run({ message: 'note this', conversationId: `conv-${i}` }));
      if (done.type !== 'done' || done.reason !== 'paused') throw new Error(`turn ${i} ended ${done.type === 'done' ? done.reason : done.type}, not parked`);
      parked.push({ turnId: done.snapshot!.turnId, requestId: done.pending![0].requestId });
      if (parked.length % 1000 === 0) log(`parked ${parked.length}`);
    });
    log(`parked ${TURNS} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const snapshotBytes = Number((await pool.query<{ b: string }>(`SELECT avg(octet_length(snapshot::text))::text AS b FROM rtl_turn`)).rows[0].b);
    out.push(`Snapshot JSON: ${Math.round(snapshotBytes).toLocaleString('en')} bytes a parked turn (before compression).`, '');
    await pool.query('VACUUM ANALYZE');
    out.push(table(`${TURNS.toLocaleString('en')} parked, as written (VACUUM ANALYZE)`, TURNS, await sizes(pool), empty));
    await pool.query('VACUUM FULL ANALYZE');
    out.push(table(`${TURNS.toLocaleString('en')} parked, compacted (VACUUM FULL)`, TURNS, await sizes(pool), empty));
    if (CLONE_TO > TURNS) {
      await cloneParked(pool, TURNS, CLONE_TO);
      await pool.query('VACUUM ANALYZE');
      const total = Number((await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM rtl_turn`)).rows[0].n);
      out.push(table(`${total.toLocaleString('en')} parked (copies of the ${TURNS.toLocaleString('en')} made in SQL), VACUUM ANALYZE`, total, await sizes(pool), empty));
      for (const t of ['rtl_event', 'rtl_change', 'rtl_turn']) await pool.query(`DELETE FROM ${t} WHERE substr(turn_id, 9, 1) = '_'`);
    }
    await inParallel(parked.length, async (i) => {
      const { turnId, requestId } = parked[i];
      await durable.decide(turnId, requestId, 'yes', 'bench');
      await lastValueFrom(durable.continue(turnId));
    });
    await pool.query('VACUUM FULL ANALYZE');
    out.push(table(`the ${TURNS.toLocaleString('en')} turns decided and run to their end, compacted`, TURNS, await sizes(pool), empty));
    const pruned = await store.prune({ olderThanMs: 0 });
    await pool.query('VACUUM FULL ANALYZE');
    out.push(table(`after store.prune({ olderThanMs: 0 }) deleted ${pruned.turns.toLocaleString('en')} finished turns, compacted (per turn before)`, TURNS, await sizes(pool), empty));
    const jobs = await jobBytes(db.url, TURNS);
    out.push(`pg-boss: ${jobs.rows.toLocaleString('en')} completed jobs ({ turnId }) add ${kb(jobs.bytes)} KB to pgboss.job with its indexes: ${per(jobs.bytes, jobs.rows)} bytes a job, until archived.`, '');
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await store?.close();
    await pool.end();
    await db.close();
  }
}

await main();
