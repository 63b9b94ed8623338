/**
 * A worker process of the engine comparison (forked by engines.ts, run through tsx): the engine's
 * worker with the bench's turn (turn-work.ts), telling its parent over IPC when a turn parks (the
 * parent decides), when a resumed turn emits its first event, and when a turn ended. On request it
 * reports its CPU, measures single-row insert commits (PostgreSQL's ceiling), or stops.
 *
 *   argv: <engine> <database url> <concurrency> <worker id> <library: src|build dir>
 */
import pg from 'pg';
import { processCpuMs } from '../durable-cpu.js';
import { loadLibrary, now } from '../durable-library.js';
import { loadEngine } from './engines-list.js';
import { turnWork } from './turn-work.js';

export type EngineWorkerMessage =
  | { type: 'ready' }
  | { type: 'parked'; turnId: string; requestId: string }
  | { type: 'resumed'; turnId: string; at: number }
  | { type: 'ended'; turnId: string; status: string; at: number }
  | { type: 'cpu'; cpuMs: number }
  | { type: 'ceiling'; commits: number }
  | { type: 'failed'; error: string };

export type EngineParentMessage = { type: 'cpu' } | { type: 'ceiling'; ms: number; connections: number } | { type: 'stop' };

async function main(): Promise<void> {
  const [engineName, url, concurrency, workerId, from] = process.argv.slice(2);
  const send = (message: EngineWorkerMessage) => process.send!(message);
  const { lib, testing } = await loadLibrary(from);
  const engine = await loadEngine(engineName);
  const worker = await engine.openWorker(url, {
    concurrency: Number(concurrency),
    workerId,
    work: turnWork(lib, testing),
    hooks: {
      parked: (turnId, requestId) => send({ type: 'parked', turnId, requestId }),
      resumed: (turnId) => send({ type: 'resumed', turnId, at: now() }),
      ended: (turnId, status) => send({ type: 'ended', turnId, status, at: now() }),
    },
  });
  process.on('message', (message: EngineParentMessage) => {
    if (message.type === 'cpu') send({ type: 'cpu', cpuMs: processCpuMs() });
    if (message.type === 'ceiling') void ceiling(url, message.connections, message.ms).then((commits) => send({ type: 'ceiling', commits }));
    if (message.type === 'stop') void worker.close().finally(() => process.exit(0)); // an engine's timers would keep it alive
  });
  send({ type: 'ready' });
}

/** Single-row INSERTs, each its own transaction, from `connections` loops for `ms`: the commits made. */
async function ceiling(url: string, connections: number, ms: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  const end = now() + ms;
  let commits = 0;
  const loop = async () => {
    while (now() < end) {
      await pool.query('INSERT INTO rtl_bench_ceiling (pid, at) VALUES ($1, $2)', [process.pid, Math.round(now())]);
      commits += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  await pool.end();
  return commits;
}

if (process.send) {
  await main().catch((error: unknown) => {
    process.send!({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies EngineWorkerMessage);
    process.exitCode = 1;
  });
}
