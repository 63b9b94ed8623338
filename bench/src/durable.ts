import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { durableBenchAgent } from './durable-bench-agent.js';
import { addCounts, countingBossDb, countingPool, noCounts, subCounts, type Counts } from './durable-counts.js';
import { backendCpuMs, processCpuMs } from './durable-cpu.js';
import { databaseCounters, openBenchDatabase } from './durable-database.js';
import { loadLibrary, now } from './durable-library.js';
import { forkWorkers } from './worker-processes.js';
import type { ParentMessage, WorkerMessage } from './durable-worker.js';

const WORKER = fileURLToPath(new URL('./durable-worker.ts', import.meta.url));

/** Options of the durable bench. */
export interface DurableOptions {
  /** Turns measured, after `warm` turns that are not. */
  readonly turns: number;
  readonly warm: number;
  /** Worker processes, and turns each runs at once (`queue.work`'s concurrency). */
  readonly workers: number;
  readonly concurrency: number;
  /** Turns submitted and not yet ended, at most (a closed loop). */
  readonly inflight: number;
  /** Turns of the light-load run after it: one under way per worker process. */
  readonly light: number;
  /** `max` of each process's two pools (the store's, pg-boss's). */
  readonly poolMax: number;
  readonly ceilingMs: number;
  /** `turnQueue`'s LISTEN/NOTIFY wake-ups (`wakeUps`) on every instance; off: workers find jobs by polling. */
  readonly wakeUps: boolean;
  /** 'src' (through tsx) or the bench's build directory. */
  readonly library: string;
  readonly log: (line: string) => void;
}

export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** What the durable bench measured. */
export interface DurableResult {
  readonly options: DurableOptions;
  readonly database: string;
  readonly turnsPerSecond: number;
  /** Decision committed → the resumed turn's first event stored, ms: in the throughput run, and at light load. */
  readonly resume: Percentiles;
  readonly lightResume: Percentiles;
  /** Submit → ended, ms. */
  readonly turn: Percentiles;
  readonly lightTurn: Percentiles;
  /** Writes that touched nothing (empty fetches) a second during the light-load run. */
  readonly lightIdlePerSecond: number;
  /** CPU ms a turn in the throughput run: the Node processes (workers and app), PostgreSQL's backends (undefined without /proc). */
  readonly cpu: { readonly node: number; readonly postgres: number | undefined };
  /** Statements a turn, over every process (durable-counts.ts). */
  readonly perTurn: Counts;
  /** From pg_stat_database over the throughput run, a turn: committed transactions (reads too), rows written. */
  readonly commits: number;
  readonly rowsWritten: number;
  readonly ceiling: number;
  readonly failures: readonly string[];
}

/**
 * N turns through W worker processes on a fresh database: each turn is submitted (a pg-boss
 * job), runs, parks at an approval, is decided by this process (an app instance that never
 * works), resumes on whichever worker takes the new job, and ends. At most `inflight` turns are
 * under way; a turn that ends lets the next one be submitted. Then `light` turns run with one
 * under way per worker process: the decision's wait for a worker without a queue of jobs ahead
 * of it. Before the turns, the same worker
 * processes measure PostgreSQL's ceiling: single-row INSERT commits per second over their pools.
 */
export async function measureDurable(options: DurableOptions): Promise<DurableResult> {
  const { log } = options;
  const db = await openBenchDatabase();
  log(`durable: ${db.label}`);
  const { lib, testing, durable } = await loadLibrary(options.library);
  const queueName = 'rtl-bench';
  const counts = noCounts();
  const pools = [new pg.Pool({ connectionString: db.url, max: options.poolMax }), new pg.Pool({ connectionString: db.url, max: options.poolMax })];
  for (const pool of pools) pool.on('error', () => undefined);
  let children: ChildProcess[] = [];
  try {
    const driverOptions = db.backend === 'pglite' ? ({ listen: false, backend: 'pglite' } as const) : {};
    const store = await durable.openSqlTurnStore(durable.poolDriver(countingPool(pools[0], counts), driverOptions));
    await pools[0].query('CREATE TABLE rtl_bench_ceiling (id bigserial PRIMARY KEY, pid integer NOT NULL, at bigint NOT NULL)');
    const boss = new PgBoss({ db: countingBossDb(pools[1], counts), supervise: false, schedule: false } as PgBoss.ConstructorOptions);
    boss.on('error', () => undefined);
    await boss.start();
    const wakeUps = options.wakeUps ? { wakeUps: durable.poolDriver(countingPool(pools[1], counts), driverOptions) } : {};
    const queue = await durable.turnQueue(boss, { name: queueName, expireInSeconds: 600, ...wakeUps });

    const args = [db.url, db.backend, String(options.concurrency), String(options.poolMax), options.library, queueName, options.wakeUps ? 'on' : 'off'];
    const workers = forkWorkers<WorkerMessage, ParentMessage>(WORKER, options.workers, () => args, 'durable bench');
    children = workers.children;
    const { fromAll } = workers;
    await fromAll('ready');
    log(`durable: ${options.workers} workers ready; ceiling…`);
    const ceilings = await fromAll('ceiling', { type: 'ceiling', ms: options.ceilingMs });
    const ceiling = ceilings.reduce((sum, c) => sum + c.commits, 0) / (options.ceilingMs / 1000);

    const decidedAt = new Map<string, number>();
    const app = durable.durableAgent(durableBenchAgent(lib, testing), {
      store: {
        ...store,
        async decide(decision) {
          const result = await store.decide(decision);
          decidedAt.set(decision.turnId, now()); // committed: the INSERT returned
          return result;
        },
      },
      onReady: queue.enqueue,
    });
    const failures: string[] = [];
    const countsNow = async () => (await fromAll('counts', { type: 'counts' })).reduce((sum, m) => addCounts(sum, m.counts), { ...counts, byKind: { ...counts.byKind } });
    /** CPU ms so far: the Node processes (workers and this one), and PostgreSQL's backends of this database. */
    const cpuNow = async () => ({
      node: (await fromAll('counts', { type: 'counts' })).reduce((sum, m) => sum + m.cpuMs, processCpuMs()),
      postgres: await backendCpuMs(pools[0]),
    });

    /** Runs `n` turns, at most `inflight` at once; resolves when all ended. */
    const run = (phase: string, n: number, inflight = options.inflight) =>
      new Promise<{ ms: number; resume: number[]; turn: number[] }>((resolve) => {
        const resume: number[] = [];
        const turn: number[] = [];
        const submittedAt = new Map<string, number>();
        let submitted = 0;
        let ended = 0;
        const t0 = now();
        const submit = (): void => {
          const i = submitted++;
          const at = now();
          app.submit({ message: 'note this', conversationId: `${phase}-${i}` }).then(
            (turnId) => submittedAt.set(turnId, at),
            (error: Error) => failures.push(`submit: ${error.message}`),
          );
        };
        const listener = (message: WorkerMessage): void => {
          if (message.type === 'parked') {
            void app.decide(message.turnId, message.requestId, 'yes', 'operator').then(
              (outcome) => outcome.status === 'accepted' || failures.push(`${message.turnId}: decision ${outcome.status}`),
              (error: Error) => failures.push(`decide: ${error.message}`),
            );
          } else if (message.type === 'resumed') {
            const decided = decidedAt.get(message.turnId);
            if (decided !== undefined) resume.push(message.at - decided);
          } else if (message.type === 'ended') {
            if (message.status !== 'done') failures.push(`${message.turnId}: ${message.status}`);
            const at = submittedAt.get(message.turnId);
            if (at !== undefined) turn.push(message.at - at);
            ended += 1;
            if (submitted < n) submit();
            if (ended === n) (stop(), resolve({ ms: now() - t0, resume, turn }));
          }
        };
        const stop = workers.listen(listener);
        for (let k = 0; k < Math.min(inflight, n); k++) submit();
      });

    log(`durable: ${options.warm} warm-up turns…`);
    await run('warm', options.warm);
    const before = await countsNow();
    const cpuBefore = await cpuNow();
    await new Promise((resolve) => setTimeout(resolve, 1200)); // the backends flush the warm-up's counters
    const statsBefore = await databaseCounters(pools[0]);
    log(`durable: ${options.turns} turns…`);
    const measured = await run('bench', options.turns);
    const perTurn = subCounts(await countsNow(), before);
    const cpuAfter = await cpuNow();
    await new Promise((resolve) => setTimeout(resolve, 1200)); // the backends flush their counters
    const statsAfter = await databaseCounters(pools[0]);
    const cpu = {
      node: (cpuAfter.node - cpuBefore.node) / options.turns,
      postgres: cpuAfter.postgres === undefined || cpuBefore.postgres === undefined ? undefined : (cpuAfter.postgres - cpuBefore.postgres) / options.turns,
    };
    log(`durable: ${options.light} turns at light load…`);
    const beforeLight = await countsNow();
    const light = await run('light', options.light, options.workers);
    const lightIdle = subCounts(await countsNow(), beforeLight).idle / (light.ms / 1000);
    const per = (k: Exclude<keyof Counts, 'byKind'>) => perTurn[k] / options.turns;
    const byKind = Object.fromEntries(Object.entries(perTurn.byKind).map(([k, v]) => [k, v / options.turns]));
    await Promise.all(children.map((child) => new Promise((resolve) => (child.once('exit', resolve), child.kill()))));
    await boss.stop({ graceful: false, wait: true });
    await store.close();
    return {
      options,
      database: db.label,
      turnsPerSecond: (options.turns * 1000) / measured.ms,
      resume: percentiles(measured.resume),
      lightResume: percentiles(light.resume),
      turn: percentiles(measured.turn),
      lightTurn: percentiles(light.turn),
      lightIdlePerSecond: lightIdle,
      cpu,
      perTurn: { storeWrites: per('storeWrites'), storeReads: per('storeReads'), queueWrites: per('queueWrites'), queueReads: per('queueReads'), idle: per('idle'), notifies: per('notifies'), byKind },
      commits: (statsAfter.commits - statsBefore.commits) / options.turns,
      rowsWritten: (statsAfter.rows - statsBefore.rows) / options.turns,
      ceiling,
      failures,
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    await db.close();
  }
}

export const percentiles = (values: readonly number[]): Percentiles => ({ p50: percentile(values, 0.5), p99: percentile(values, 0.99), max: percentile(values, 1) });

/** The nearest-rank percentile (`q` 0–1) of `values`. */
function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const ms = (p: Percentiles) => `${fixed(p.p50, 1)} / ${fixed(p.p99, 1)} / ${fixed(p.max, 1)}`;
export const fixed = (value: number, digits: number) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The durable bench's markdown table. */
export function durableTable(r: DurableResult): string {
  const o = r.options;
  const p = r.perTurn;
  const rows = [
    ['database', r.database],
    ['worker processes × turns each at once; turns in flight', `${o.workers} × ${o.concurrency}; ${o.inflight}`],
    ['how workers find jobs', o.wakeUps ? 'LISTEN/NOTIFY wake-ups (`wakeUps`), polling every 5 s as the fallback' : 'polling every 0.5 s (`--durable-polling`)'],
    ['turns measured (after warm-up turns)', `${fixed(o.turns, 0)} (${o.warm})`],
    ['**turns/s**, first submit to last end', `**${fixed(r.turnsPerSecond, 1)}**`],
    ['decision committed → resumed turn stored its first event, p50 / p99 / max (ms)', ms(r.resume)],
    ['submit → turn ended, p50 / p99 / max (ms)', ms(r.turn)],
    [`**at light load** (${fixed(o.light, 0)} turns, ${o.workers} under way): decision → resumed, p50 / p99 / max (ms)`, `**${ms(r.lightResume)}**`],
    ['at light load: submit → turn ended, p50 / p99 / max (ms); empty fetches a second', `${ms(r.lightTurn)}; ${fixed(r.lightIdlePerSecond, 1)}`],
    ['**writes a turn** (statements that inserted, updated or deleted a row): store + pg-boss', `**${fixed(p.storeWrites + p.queueWrites, 1)}**: ${fixed(p.storeWrites, 1)} + ${fixed(p.queueWrites, 1)}`],
    ['CPU a turn (ms): Node processes (workers + app) + PostgreSQL backends', `${fixed(r.cpu.node, 2)} + ${r.cpu.postgres === undefined ? 'n/a' : fixed(r.cpu.postgres, 2)}`],
    ['reads a turn: store + pg-boss', `${fixed(p.storeReads, 1)} + ${fixed(p.queueReads, 1)}`],
    ['writes that touched nothing a turn (empty fetches), NOTIFYs a turn', `${fixed(p.idle, 1)}, ${fixed(p.notifies, 1)}`],
    [`PostgreSQL ceiling: single-row INSERT commits/s, ${o.workers} processes × 2 pools × ${o.poolMax} connections`, fixed(r.ceiling, 0)],
    ['turns/s ÷ ceiling', `${fixed((100 * r.turnsPerSecond) / r.ceiling, 2)} %; one turn costs ${fixed(r.ceiling / r.turnsPerSecond, 1)} ceiling commits`],
    ['statements a turn by verb and table (≥ 0.1)', kinds(p.byKind)],
    ['failures', r.failures.length === 0 ? 'none' : r.failures.slice(0, 5).join('; ')],
  ];
  return ['| measure | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}

const kinds = (byKind: Record<string, number>): string =>
  Object.entries(byKind)
    .filter(([, v]) => v >= 0.05)
    .sort(([, a], [, b]) => b - a)
    .map(([k, v]) => `${k.replaceAll('|', '/')} ${fixed(v, 1)}`)
    .join(', ');

/**
 * The durable bench's one-line summary (the report's last line): throughput and writes from the
 * throughput run, decision to resume at light load (the wait for a worker, not for the jobs
 * queued ahead of it; the table has both).
 */
export function durableLine(r: DurableResult): string {
  const p = r.perTurn;
  return `durable: ${r.turnsPerSecond.toFixed(1)} turns/s, decision to resume p50 ${r.lightResume.p50.toFixed(1)} ms p99 ${r.lightResume.p99.toFixed(1)} ms, ${(p.storeWrites + p.queueWrites).toFixed(1)} writes a turn, PostgreSQL ceiling ${r.ceiling.toFixed(0)} commits/s`;
}
