import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, scrubCredentials, type TurnEventOf } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { leakedWindows } from '../fixtures/secrets-corpus.js';
import { splitSecrets, streamedText } from './split-secrets.js';
import type { WireRecord } from '../../examples/console/wire.js';
import { openTestDatabase, type TestDatabase } from '../durable/test-database.js';
import { call, collect, ofTurn, openConsoleInstance, openInstance, parkInChild, readStream, type ConsoleInstance, type Instance } from './durable-consoles.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000); // PGlite (a machine without the server) compiles its WebAssembly first
afterAll(async () => db?.close());

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const instance = async (): Promise<Instance> => {
  const i = await openInstance(db);
  cleanups.push(() => i.close());
  return i;
};
const consoleInstance = async (options: Parameters<typeof openConsoleInstance>[1] = {}): Promise<ConsoleInstance> => {
  const i = await openConsoleInstance(db, options);
  cleanups.push(() => i.close());
  return i;
};

type Done = TurnEventOf<'done'>;
/** Instance A runs a turn of the world until it parks; resolves with the turn's id and its pending request. */
async function parkOn(a: Instance, message: string, conversationId: string): Promise<{ turnId: string; requestId: string }> {
  const done = (await collect(a.durable.run({ message, conversationId }))).at(-1) as Done;
  expect(done.reason).toBe('paused');
  return { turnId: done.snapshot!.turnId, requestId: done.pending![0].requestId };
}

describe('a console on instance B lists and decides the approvals of a turn parked on instance A', () => {
  it('B lists the parked approval, decides it, and A’s continue finishes the turn with B’s decision', async () => {
    const a = await instance();
    const b = await consoleInstance();
    const { turnId, requestId } = await parkOn(a, 'note this', 'across-1');
    const listed = (await (await call(b, '/api/approvals')).json()) as { approvals: Record<string, unknown>[] };
    expect(listed.approvals.filter((p) => p.turnId === turnId)).toEqual([
      { turnId, conversationId: 'across-1', requestId, toolName: 'write', argumentsSummary: 'text: hello', arguments: 'text: hello' },
    ]);
    expect((await call(b, `/api/approvals/${requestId}`, { decision: 'yes', turnId })).status).toBe(200);
    expect((await (await call(b, '/api/approvals')).json()).approvals.filter((p: { turnId: string }) => p.turnId === turnId)).toEqual([]);
    const done = (await collect(a.durable.continue(turnId))).at(-1) as Done;
    expect(done).toMatchObject({ reason: 'final', text: 'noted' });
    expect(done.history.find((m) => m.role === 'tool' && m.content.startsWith('wrote hello'))?.content).toBe('wrote hello (approved=true)');
    expect((await a.store.auditLog({ turnId })).map((r) => [r.toolName, r.decision, r.decidedBy, r.byOperator])).toEqual([['write', 'yes', 'web-console', true]]);
  });

  it('showTurn limits what a console shows and decides: another conversation’s turn is not listed and is 404', async () => {
    const a = await instance();
    const b = await consoleInstance({ showTurn: (t) => t.conversationId === 'tenant-1' });
    const mine = await parkOn(a, 'note mine', 'tenant-1');
    const theirs = await parkOn(a, 'note theirs', 'tenant-2');
    const listed = (await (await call(b, '/api/approvals')).json()) as { approvals: { turnId: string }[] };
    expect(listed.approvals.map((p) => p.turnId)).toEqual([mine.turnId]);
    expect((await call(b, `/api/approvals/${theirs.requestId}`, { decision: 'yes', turnId: theirs.turnId })).status).toBe(404);
    expect(await a.store.decisions(theirs.turnId)).toEqual([]);
  });

  it('a decision without the turn id finds the turn of the card; an unknown request is 404', async () => {
    const a = await instance();
    const b = await consoleInstance({ decidedBy: 'bob' });
    const { turnId, requestId } = await parkOn(a, 'note that', 'across-2');
    // the card is on B's page once B has read the turn's events
    await readStream(b, (r) => r.turnId === turnId && r.event.type === 'approval-open');
    expect((await call(b, '/api/approvals/not-a-request', { decision: 'yes' })).status).toBe(404);
    expect((await call(b, '/api/approvals/not-a-request', { decision: 'yes', turnId })).status).toBe(404);
    expect((await call(b, `/api/approvals/${requestId}`, { decision: 'yes', turnId: 'no such turn' })).status).toBe(400);
    expect((await call(b, `/api/approvals/${requestId}`, { decision: 'no' })).status).toBe(200);
    expect(await a.store.decisions(turnId)).toMatchObject([{ requestId, decision: 'no', decidedBy: 'bob' }]);
  });
});

describe('a turn that parks twice opens a card each time, and the row is parked whenever a card is open', () => {
  it('B decides the first request, A parks again on the second, B decides that one, A ends the turn', async () => {
    const a = await instance();
    const b = await consoleInstance({ showTurn: (t) => t.conversationId === 'twice-1' });
    const first = await parkOn(a, 'twice please', 'twice-1');
    const open = (n: number) => readStream(b, (_r, all) => all.filter((r) => r.event.type === 'approval-open').length === n);
    await open(1);
    expect((await call(b, `/api/approvals/${first.requestId}`, { decision: 'yes' })).status).toBe(200);
    expect((await collect(a.durable.continue(first.turnId))).at(-1)).toMatchObject({ type: 'done', reason: 'paused' });
    const second = (await open(2)).filter((r) => r.event.type === 'approval-open').at(-1)!.event as { requestId: string };
    expect(second.requestId).not.toBe(first.requestId);
    expect((await call(b, `/api/approvals/${second.requestId}`, { decision: 'no' })).status).toBe(200);
    expect((await collect(a.durable.continue(first.turnId))).at(-1)).toMatchObject({ type: 'done', reason: 'final', text: 'both' });
    const shown = await readStream(b, (r) => r.event.type === 'turn-end');
    expect(shown.filter((r) => r.event.type === 'approval-answered').map((r) => (r.event as { answer: string }).answer)).toEqual(['yes', 'no']);
  });
});

describe('the first decision wins on any instance: a second one is 409 with the winner’s decision', () => {
  it('B decides; the same request on A’s console is 409 with B’s decision, before and after the turn went on', async () => {
    const a = await consoleInstance({ decidedBy: 'alice' });
    const b = await consoleInstance({ decidedBy: 'bob' });
    const { turnId, requestId } = await parkOn(a, 'note it', 'first-wins-1');
    expect((await call(b, `/api/approvals/${requestId}`, { decision: 'no', turnId })).status).toBe(200);
    const late = await call(a, `/api/approvals/${requestId}`, { decision: 'yes', turnId });
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ error: 'This request was already decided.', decision: 'no', decidedBy: 'bob' });
    expect((await collect(a.durable.continue(turnId))).at(-1)).toMatchObject({ type: 'done', reason: 'final' });
    const after = await call(a, `/api/approvals/${requestId}`, { decision: 'replace', replaceWith: 'x', turnId });
    expect(after.status).toBe(409);
    expect(await after.json()).toMatchObject({ decision: 'no', decidedBy: 'bob' });
  });

  it('two consoles decide the same request at once: one 200, one 409, and the store holds the winner', async () => {
    const a = await consoleInstance({ decidedBy: 'alice' });
    const b = await consoleInstance({ decidedBy: 'bob' });
    const { turnId, requestId } = await parkOn(a, 'note both', 'first-wins-2');
    const [ra, rb] = await Promise.all([
      call(a, `/api/approvals/${requestId}`, { decision: 'yes', turnId }),
      call(b, `/api/approvals/${requestId}`, { decision: 'no', turnId }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const [winner] = await a.store.decisions(turnId);
    const refused = (await (ra.status === 409 ? ra : rb).json()) as { decision: string; decidedBy: string };
    expect(refused).toMatchObject({ decision: winner.decision, decidedBy: winner.decidedBy });
    expect(winner.decidedBy).toBe(ra.status === 200 ? 'alice' : 'bob');
  });
});

describe('the page’s own turns run with durable.run, one at a time per conversation', () => {
  it('a turn started on a console parks in the store; another is 409 while it waits; cancel has nothing to stop', async () => {
    const b = await consoleInstance({ conversationId: 'page-conv', showTurn: (t) => t.conversationId === 'page-conv' });
    const parked = readStream(b, (r) => r.event.type === 'approval-open');
    expect((await call(b, '/api/turns', { message: 'note from the page' })).status).toBe(202);
    const turnId = (await parked).at(-1)!.turnId!;
    expect(await b.store.getTurn(turnId)).toMatchObject({ status: 'parked', conversationId: 'page-conv', input: { ingress: { channel: 'web-console' } } });
    expect((await call(b, '/api/turns', { message: 'another' })).status).toBe(409);
    expect((await call(b, '/api/turns/cancel', {})).status).toBe(409);
  });
});

describe('the replay log stays bounded with store turns in it', () => {
  it('past maxReplayRecords the oldest records go, but a parked turn’s open request stays until decided', async () => {
    const a = await instance();
    const b = await consoleInstance({ maxReplayRecords: 3, showTurn: (t) => t.conversationId === 'bounded-1' });
    const { turnId, requestId } = await parkOn(a, 'note this', 'bounded-1');
    const log = () => {
      const records: WireRecord[] = [];
      b.web.session.watch(0, (r) => records.push(r), { operator: false })();
      return records.map((r) => r.event.type);
    };
    await readStream(b, (r) => r.turnId === turnId && r.event.type === 'approval-open');
    expect(log()).toEqual(['approval-request', 'done', 'approval-open']);
    expect((await call(b, `/api/approvals/${requestId}`, { decision: 'yes', turnId })).status).toBe(200);
    await readStream(b, (r) => r.event.type === 'approval-answered');
    expect(log()).toEqual(['done', 'approval-open', 'approval-answered']);
    await collect(a.durable.continue(turnId));
    await readStream(b, (r) => r.event.type === 'turn-end');
    expect(log()).toEqual(['text-delta', 'done', 'turn-end']); // decided: its open record left the log too
  });
});

describe('B’s page is a rendering surface like A’s: the store’s events are scrubbed as the console’s own', () => {
  it('a secret the model streamed on A in two deltas reaches B’s stream only scrubbed, the text read as one', async () => {
    const pieces = splitSecrets().flatMap((s) => s.deltas);
    const world = createAgent({ name: 'world', provider: scriptedModel([streamedText(pieces)]), model: 'm', tools: [] });
    const a = await openInstance(db, world);
    cleanups.push(() => a.close());
    const b = await consoleInstance({ showTurn: (t) => t.conversationId === 'secret-1' });
    const done = (await collect(a.durable.run({ message: 'show me', conversationId: 'secret-1' }))).at(-1) as Done;
    const [turn] = await a.store.listTurns({ conversationId: 'secret-1' });
    const records = ofTurn(await readStream(b, (r) => r.turnId === turn.turnId && r.event.type === 'turn-end'), turn.turnId);
    const sent = JSON.stringify(records);
    for (const { sample } of splitSecrets()) expect(leakedWindows(sent, sample.secret)).toEqual([]);
    const text = records.flatMap((r) => (r.event.type === 'text-delta' ? [r.event.text] : [])).join('');
    expect(text).toBe(scrubCredentials(pieces.join('')));
    expect(text).toBe(done.text);
  });
});

describe('B’s event stream shows the events A appended, replayed then followed', () => {
  it('a turn parked by a separate process: B (watching before) and C (started after) replay it; B follows its resumption on A to the end', async () => {
    const b = await consoleInstance();
    const turnId = await parkInChild(db, 'note this', 'child-1');
    const c = await consoleInstance();
    const a = await instance();
    const parkedOn = (records: readonly { turnId?: string; event: { type: string } }[]) => records.some((r) => r.turnId === turnId && r.event.type === 'approval-open');
    const [onB, onC] = await Promise.all([readStream(b, (_r, all) => parkedOn(all)), readStream(c, (_r, all) => parkedOn(all))]);
    const logged = (await a.store.events(turnId)).map((e) => e.event.type);
    const shown = (records: typeof onB) => ofTurn(records, turnId).map((r) => r.event.type);
    expect(shown(onB)).toEqual(['turn-start', ...logged, 'approval-open']);
    expect(shown(onC)).toEqual(shown(onB));
    expect(ofTurn(onB, turnId)[0].event).toEqual({ type: 'turn-start', message: 'note this' });
    const open = ofTurn(onB, turnId).at(-1)!.event;
    expect(open).toMatchObject({ type: 'approval-open', toolName: 'write', argumentsSummary: 'text: hello' });
    expect(open).not.toHaveProperty('deadline');
    const done = ofTurn(onB, turnId).find((r) => r.event.type === 'done')!.event;
    expect(done).toMatchObject({ reason: 'paused', historyLength: 0 });
    expect(done).not.toHaveProperty('pending');
    expect(done).not.toHaveProperty('snapshot');

    // B decides; A continues; B's stream goes on from where it was to the turn's end
    const requestId = (open as { requestId: string }).requestId;
    const lastSeen = onB.at(-1)!.seq;
    const rest = readStreamAfter(b, lastSeen, (r) => r.turnId === turnId && r.event.type === 'turn-end');
    expect((await call(b, `/api/approvals/${requestId}`, { decision: 'yes', turnId, tab: 'tab-b' })).status).toBe(200);
    expect((await collect(a.durable.continue(turnId))).at(-1)).toMatchObject({ type: 'done', reason: 'final', text: 'noted' });
    const after = ofTurn(await rest, turnId);
    expect(after[0].event).toEqual({ type: 'approval-answered', requestId, answer: 'yes', tab: 'tab-b', decidedBy: 'web-console' });
    const all = (await a.store.events(turnId)).map((e) => e.event.type);
    expect(after.slice(1).map((r) => r.event.type)).toEqual([...all.slice(logged.length), 'turn-end']);
    expect(after.at(-1)!.event).toEqual({ type: 'turn-end' });
  }, 60_000); // a child process starts tsx first
});

/** The records after `afterSeq` (a reconnect with Last-Event-ID), until `until`. */
async function readStreamAfter(rc: ConsoleInstance, afterSeq: number, until: Parameters<typeof readStream>[1]) {
  const records = await readStream(rc, until, { 'last-event-id': String(afterSeq) });
  expect(records[0].seq).toBe(afterSeq + 1);
  return records;
}
