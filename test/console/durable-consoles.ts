import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { lastValueFrom, toArray } from 'rxjs';
import { durableAgent, openSqlTurnStore, poolDriver, type DurableAgent, type TurnStore } from '../../src/durable/index.js';
import type { Agent, TurnEvent } from '../../src/index.js';
import { createApprovalConsole, type ApprovalConsole, type ApprovalConsoleOptions } from '../../examples/console/approval-console.js';
import type { WireRecord } from '../../examples/console/wire.js';
import type { TestDatabase } from '../durable/test-database.js';
import { worldAgent } from '../durable/world.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

/** One instance of the app: its own connection to the store, the world's durable agent, and (when asked) a console on it. */
export interface Instance {
  readonly store: TurnStore;
  readonly durable: DurableAgent;
  close(): Promise<void>;
}

export interface ConsoleInstance extends Instance {
  readonly web: ApprovalConsole;
  readonly url: string;
  readonly base: string;
}

/** `agent`: default the durable suites' world agent (a console shows the turns of its agent's name: 'world'). */
export async function openInstance(db: TestDatabase, agent: Agent = worldAgent()): Promise<Instance> {
  const store = await openSqlTurnStore(poolDriver(db.pool(4), db.driverOptions), { pollMs: 20 });
  return { store, durable: durableAgent(agent, { store }), close: () => store.close() };
}

/** An instance with a console whose `durable` is the instance's agent, listening on a free loopback port. */
export async function openConsoleInstance(db: TestDatabase, options: ApprovalConsoleOptions = {}): Promise<ConsoleInstance> {
  const instance = await openInstance(db);
  const web = createApprovalConsole({ ...options, durable: instance.durable });
  const url = await web.listen();
  return {
    ...instance,
    web,
    url,
    base: new URL(url).origin,
    close: async () => {
      await web.close();
      await instance.close();
    },
  };
}

/** Runs a turn in a separate process (test/console/park-turn.ts) until it parks; resolves with its id. */
export async function parkInChild(db: TestDatabase, message: string, conversationId: string): Promise<string> {
  const env = { ...process.env, RTL_DATABASE_URL: db.url, RTL_DATABASE_BACKEND: db.backend };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/console/park-turn.ts', message, conversationId], { cwd: root, env });
  const { turnId, reason } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { turnId: string | null; reason: string };
  if (reason !== 'paused' || turnId === null) throw new Error(`the child's turn ended ${reason} instead of parking`);
  return turnId;
}

export const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));

/** A request to a console with its session token. */
export function call(rc: { base: string; web: ApprovalConsole }, path: string, body?: unknown, token = rc.web.token): Promise<Response> {
  return fetch(`${rc.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-console-token': token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Reads a console's event stream until `until` holds for a record; then closes it. */
export async function readStream(
  rc: { base: string; web: ApprovalConsole },
  until: (record: WireRecord, all: WireRecord[]) => boolean,
  headers: Record<string, string> = {},
): Promise<WireRecord[]> {
  const controller = new AbortController();
  const res = await fetch(`${rc.base}/events?token=${rc.web.token}`, { headers, signal: controller.signal });
  if (res.status !== 200) throw new Error(`the event stream was refused: ${res.status}`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const records: WireRecord[] = [];
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return records;
      buffer += value;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!data) continue;
        const record = JSON.parse(data) as WireRecord;
        records.push(record);
        if (until(record, records)) return records;
      }
    }
  } finally {
    controller.abort();
  }
}

/** The records of one store turn. */
export const ofTurn = (records: readonly WireRecord[], turnId: string) => records.filter((r) => r.turnId === turnId);
