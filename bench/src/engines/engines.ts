import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { backendCpuMs, processCpuMs } from '../durable-cpu.js';
import { databaseCounters, openBenchDatabase } from '../durable-database.js';
import { now } from '../durable-library.js';
import { percentiles, type Percentiles } from '../durable.js';
import type { EngineParentMessage, EngineWorkerMessage } from './engine-worker.js';
import { loadEngine } from './engines-list.js';
import { forkWorkers } from '../worker-processes.js';

const WORKER = fileURLToPath(new URL('./engine-worker.ts', import.meta.url));

/** Options of the engine comparison. */
export interface EnginesOptions {
  /** Engines by name (engines-list.ts), measured one after the other, each on a fresh database. */
  readonly engines: readonly string[];
  readonly turns: number;
  readonly warm: number;
  readonly workers: number;
  readonly concurrency: number;
  readonly inflight: number;
  readonly light: number;
  readonly ceilingMs: number;
  readonly library: string;
  readonly log: (line: string) => void;
}

/** What one engine measured (or why it did not run). */
export interface EngineResult {
  readonly name: string;
  readonly unavailable?: string;
  readonly database?: string;
  readonly turnsPerSecond?: number;
  readonly resume?: Percentiles;
  readonly lightResume?: Percentiles;
  readonly turn?: Percentiles;
  /** From pg_stat_database over the throughput run: committed transactions (reads too) and rows written, a turn. */
  readonly commits?: number;
  readonly rowsWritten?: number;
  /** CPU ms a turn: the Node processes (workers and app), PostgreSQL's backends (undefined without /proc). */
  readonly cpu?: { readonly node: number; readonly postgres: number | undefined };
  /** Single-row INSERT commits/s over the workers' connections, measured on this engine's database. */
  readonly ceiling?: number;
  readonly failures: readonly string[];
}

/** A turn that has not ended after this long stops the run: the engine stalled. */
const STALL_MS = 60_000;

/**
 * The same durable flow through each engine (engine.ts): N turns through W worker processes, at
 * most `inflight` under way, then `light` turns with one under way per worker; before the turns,
 * PostgreSQL's ceiling over the same worker processes. Each engine runs on a fresh database of
 * its own, so pg_stat_database counts its transactions alone.
 */
export async function measureEngines(options: EnginesOptions): Promise<EngineResult[]> {
  const results: EngineResult[] = [];
  for (const name of options.engines) {
    const engine = await loadEngine(name);
    const unavailable = engine.unavailable?.();
    if (unavailable) {
      options.log(`engines: ${engine.name} skipped: ${unavailable}`);
      results.push({ name: engine.name, unavailable, failures: [] });
      continue;
    }
    options.log(`engines: ${engine.name}…`);
    results.push(await measureEngine(name, engine.name, options));
  }
  return results;
}

async function measureEngine(key: string, name: string, options: EnginesOptions): Promise<EngineResult> {
  const { log } = options;
  const db = await openBenchDatabase();
  const engine = await loadEngine(key);
  const stats = new pg.Pool({ connectionString: db.url, max: 1 });
  stats.on('error', () => undefined);
  let children: ChildProcess[] = [];
  try {
    await engine.install(db.url);
    await stats.query('CREATE TABLE rtl_bench_ceiling (id bigserial PRIMARY KEY, pid integer NOT NULL, at bigint NOT NULL)');
    const app = await engine.openApp(db.url);
    const failures: string[] = [];
    const workers = forkWorkers<EngineWorkerMessage, EngineParentMessage>(
      WORKER,
      options.workers,
      (w) => [key, db.url, String(options.concurrency), `bench-worker-${w}`, options.library],
      name,
      (message) => (message.type === 'failed' ? message.error : undefined),
    );
    children = workers.children;
    const { fromAll } = workers;
    await fromAll('ready');
    log(`engines: ${name}: ${options.workers} workers ready; ceiling…`);
    const connections = 10; // 4 workers × 10: the durable bench's 4 × 2 pools × 5
    const ceilings = await fromAll('ceiling', { type: 'ceiling', ms: options.ceilingMs, connections });
    const ceiling = ceilings.reduce((sum, c) => sum + c.commits, 0) / (options.ceilingMs / 1000);

    const decidedAt = new Map<string, number>();
    /** Runs `n` turns, at most `inflight` at once; resolves when all ended. */
    const run = (phase: string, n: number, inflight: number) =>
      new Promise<{ ms: number; resume: number[]; turn: number[] }>((resolve, reject) => {
        const resume: number[] = [];
        const turn: number[] = [];
        const submittedAt = new Map<string, number>();
        let submitted = 0;
        let ended = 0;
        const t0 = now();
        let stall = setTimeout(() => reject(new Error(`${name}: no turn ended for ${STALL_MS} ms (${ended} of ${n})`)), STALL_MS);
        workers.failed(reject);
        const submit = (): void => {
          const turnId = `${phase}-${submitted++}`;
          submittedAt.set(turnId, now());
          app.submit(turnId).catch((error: Error) => failures.push(`submit: ${error.message}`));
        };
        const listener = (message: EngineWorkerMessage): void => {
          if (message.type === 'parked') {
            app.decide(message.turnId, message.requestId, 'yes').then(
              () => decidedAt.set(message.turnId, now()), // committed
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
            clearTimeout(stall);
            stall = setTimeout(() => reject(new Error(`${name}: no turn ended for ${STALL_MS} ms (${ended} of ${n})`)), STALL_MS);
            if (submitted < n) submit();
            if (ended === n) (clearTimeout(stall), stop(), resolve({ ms: now() - t0, resume, turn }));
          }
        };
        const stop = workers.listen(listener);
        for (let k = 0; k < Math.min(inflight, n); k++) submit();
      });
    /** CPU ms so far (Node processes, PostgreSQL backends) and pg_stat_database's counters, after a pause that lets the backends flush them. */
    const sample = async () => {
      await sleep(1200);
      const cpus = await fromAll('cpu', { type: 'cpu' });
      return { node: cpus.reduce((sum, c) => sum + c.cpuMs, processCpuMs()), postgres: await backendCpuMs(stats), ...(await databaseCounters(stats)) };
    };

    log(`engines: ${name}: ${options.warm} warm-up turns…`);
    await run('warm', options.warm, options.inflight);
    const before = await sample();
    log(`engines: ${name}: ${options.turns} turns…`);
    const measured = await run('bench', options.turns, options.inflight);
    const after = await sample();
    log(`engines: ${name}: ${options.light} turns at light load…`);
    const light = await run('light', options.light, options.workers);
    const per = (a: number, b: number) => (a - b) / options.turns;
    await Promise.all(children.map((child) => new Promise((resolve) => (child.once('exit', resolve), child.send({ type: 'stop' } satisfies EngineParentMessage)))));
    await app.close();
    return {
      name,
      database: db.label,
      turnsPerSecond: (options.turns * 1000) / measured.ms,
      resume: percentiles(measured.resume),
      lightResume: percentiles(light.resume),
      turn: percentiles(measured.turn),
      commits: per(after.commits, before.commits),
      rowsWritten: per(after.rows, before.rows),
      cpu: { node: per(after.node, before.node), postgres: after.postgres === undefined || before.postgres === undefined ? undefined : per(after.postgres, before.postgres) },
      ceiling,
      failures,
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await stats.end().catch(() => undefined);
    await db.close();
  }
}
