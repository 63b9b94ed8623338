import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, type TurnEventOf } from '../../src/index.js';
import { createApprovalConsole } from '../../examples/console/approval-console.js';
import { openTestDatabase, type TestDatabase } from '../durable/test-database.js';
import { call, collect, openConsoleInstance, openInstance, type ConsoleInstance, type Instance } from './durable-consoles.js';
import { nextRecord, post, startConsole, type RunningConsole } from './helpers.js';

/** Issue 16, item 7: ids that are no ids (NUL, far too long, not strings) are a 400 from the console, never a database's error (500). */

/** Request ids in the path that decode to no id, with what they are. */
const BAD_PATH_IDS: [string, string][] = [
  ['a NUL byte', 'req%00id'],
  ['only a NUL', '%00'],
  ['257 characters', 'r'.repeat(257)],
  ['8 KB', 'r'.repeat(8 * 1024)],
  ['an escaped lone surrogate pair half', '%ED%B0%80'],
];
/** `turnId` values in the body that are no turn ids. */
const BAD_TURN_IDS: [string, unknown][] = [
  ['a NUL byte', 'turn\u0000id'],
  ['200 KB', 't'.repeat(200 * 1024)],
  ['a number', 42],
  ['null', null],
  ['an array', ['t']],
];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a console without a store: a request id or turn id that is no id is 400, and the pending request still takes its decision', () => {
  let rc: RunningConsole;
  let requestId: string;
  beforeAll(async () => {
    rc = await startConsole();
    const open = nextRecord(rc.web, (r) => r.event.type === 'approval-open');
    expect((await post(rc, '/api/turns', { message: 'save it' })).status).toBe(202);
    const { event } = await open;
    if (event.type !== 'approval-open') throw new Error('unreachable');
    requestId = event.requestId;
  });
  afterAll(async () => rc?.close());

  it.each(BAD_PATH_IDS)('request id: %s', async (_, id) => {
    const res = await post(rc, `/api/approvals/${id}`, { decision: 'yes' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^The request id /);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
  });

  it.each(BAD_TURN_IDS)('turn id: %s', async (_, turnId) => {
    const res = await post(rc, `/api/approvals/${encodeURIComponent(requestId)}`, { decision: 'yes', turnId });
    expect(res.status).toBe(400);
    expect(rc.web.session.approvals.ids).toEqual([requestId]);
  });

  it('then the real request is decided', async () => {
    expect((await post(rc, `/api/approvals/${encodeURIComponent(requestId)}`, { decision: 'no' })).status).toBe(200);
  });
});

describe('a console on a store (PostgreSQL or PGlite)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  }, 120_000);
  afterAll(async () => db?.close(), 60_000);

  async function parked(): Promise<{ a: Instance; b: ConsoleInstance; turnId: string; requestId: string }> {
    const a = await openInstance(db);
    cleanups.push(() => a.close());
    const b = await openConsoleInstance(db);
    cleanups.push(() => b.close());
    const done = (await collect(a.durable.run({ message: 'note this', conversationId: `ids-${Math.random()}` }))).at(-1) as TurnEventOf<'done'>;
    return { a, b, turnId: done.snapshot!.turnId, requestId: done.pending![0].requestId };
  }

  it('a stored turn’s request named with a NUL, a long id or a bad turn id is 400 (never 500); the real one is decided once', async () => {
    const { a, b, turnId, requestId } = await parked();
    for (const [, id] of BAD_PATH_IDS) expect((await call(b, `/api/approvals/${id}`, { decision: 'yes', turnId })).status).toBe(400);
    for (const [, bad] of BAD_TURN_IDS) expect((await call(b, `/api/approvals/${requestId}`, { decision: 'yes', turnId: bad })).status).toBe(400);
    expect(await a.store.decisions(turnId)).toEqual([]);
    expect((await call(b, `/api/approvals/${requestId}`, { decision: 'yes', turnId })).status).toBe(200);
    expect((await a.store.decisions(turnId)).map((d) => [d.requestId, d.decision])).toEqual([[requestId, 'yes']]);
  });

  it('a decidedBy or conversationId that is no id is a ConfigurationError when the console is made', async () => {
    const a = await openInstance(db);
    cleanups.push(() => a.close());
    for (const options of [{ decidedBy: 'web\u0000console' }, { decidedBy: '' }, { conversationId: 'c'.repeat(1024 * 1024) }, { conversationId: 42 as unknown as string }]) {
      expect(() => createApprovalConsole({ ...options, durable: a.durable })).toThrow(ConfigurationError);
    }
  });
});
