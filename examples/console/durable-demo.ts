import pg from 'pg';
import type { Agent } from '../../src/index.js';
import { durableAgent, postgresTurnStore, type DurableAgent, type TurnStore } from '../../src/durable/index.js';

/** The console demo's durable agent on PostgreSQL, and how to close it. */
export interface DurableDemo {
  readonly agent: DurableAgent;
  readonly store: TurnStore;
  close(): Promise<void>;
}

/**
 * The demo agent made durable on the database at `url`: its turns park at an approval, and the
 * instance whose decision is a turn's last one continues it here (a deployment would enqueue it
 * on `turnQueue` workers instead).
 *
 * @example
 * ```ts
 * const demo = await openDurableDemo('postgres://localhost/app', agent);
 * const web = createApprovalConsole({ durable: demo.agent });
 * ```
 */
export async function openDurableDemo(url: string, agent: Agent): Promise<DurableDemo> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined); // a dropped idle connection: the next query reconnects
  const store = await postgresTurnStore(pool);
  const durable: DurableAgent = durableAgent(agent, {
    store,
    onReady: (turn) => {
      if (turn.status === 'parked') durable.continue(turn.turnId).subscribe({ error: (err: unknown) => console.error(err) });
    },
  });
  return {
    agent: durable,
    store,
    async close() {
      await store.close();
      await pool.end();
    },
  };
}
