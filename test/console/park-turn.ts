/**
 * Instance A as a process of its own: runs one turn of the durable suites' world agent on the
 * store at RTL_DATABASE_URL until it parks (or ends), prints the turn's id and exits.
 *
 *   RTL_DATABASE_URL=postgres://… RTL_DATABASE_BACKEND=postgres|pglite node --import tsx test/console/park-turn.ts 'note this' conversation-1
 */
import pg from 'pg';
import { lastValueFrom } from 'rxjs';
import { durableAgent, openSqlTurnStore, poolDriver } from '../../src/durable/index.js';
import { worldAgent } from '../durable/world.js';

const [message = 'note this', conversationId = 'child'] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: process.env.RTL_DATABASE_URL, max: 2 });
const driverOptions = process.env.RTL_DATABASE_BACKEND === 'pglite' ? { listen: false, backend: 'pglite' as const } : {};
const store = await openSqlTurnStore(poolDriver(pool, driverOptions));
const done = await lastValueFrom(durableAgent(worldAgent(), { store, owner: 'instance-a' }).run({ message, conversationId }));
if (done.type !== 'done') throw new Error('the turn did not end');
process.stdout.write(`${JSON.stringify({ turnId: done.snapshot?.turnId ?? null, reason: done.reason })}\n`);
await store.close();
await pool.end();
