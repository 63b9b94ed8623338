import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ApprovalManager,
  createAgent,
  pauseForApproval,
  SnapshotMismatchError,
  SnapshotTamperedError,
  type ApprovalAnswer,
  type ApprovalFrontDoor,
  type SlotState,
  type TurnEvent,
  type TurnEventOf,
  type TurnSnapshot,
} from '../../src/index.js';
import { durableAgent, memoryTurnStore } from '../../src/durable/index.js';
import { sealSnapshot, snapshotKeyOf } from '../../src/loop/seal-snapshot.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { WORLD_SNAPSHOT_KEY, worldAgent } from '../durable/world.js';

/**
 * A parked snapshot's `conversationId` swapped to another conversation's, to borrow its
 * `always` allow-list. Unsealed, the seal refuses it. Sealed again by a forger holding the key,
 * it is refused wherever the resume knows the conversation: `resume(snapshot, { conversationId })`
 * in-process, and always on a durable store, whose row says which conversation the turn is of.
 */

const KEY = 'conversation swap test key, 32ch';
type Done = TurnEventOf<'done'>;
const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const done = (events: TurnEvent[]) => events.at(-1) as Done;
const failure = (events$: Observable<TurnEvent>) => collect(events$).then(() => undefined, (err: unknown) => err as Error);
const yes = (parked: Done) => ({ [parked.pending![0].requestId]: 'yes' as const });

/** The snapshot moved to `to`, its waiting request with it; sealed again under `key` when given. */
function swapped(snapshot: TurnSnapshot, to: string, key?: string): TurnSnapshot {
  const slots = snapshot.batch!.slots.map((s): SlotState => (s.state === 'awaiting-approval' ? { ...s, request: { ...s.request, conversationId: to } } : s));
  const moved = { ...snapshot, conversationId: to, batch: { ...snapshot.batch!, slots } };
  return key === undefined ? moved : sealSnapshot(moved, snapshotKeyOf(key), snapshot.seal!.sequence);
}

/** The message names one call per iteration ('exec,write'); write answered `always`, the rest parks. */
function inProcess() {
  const write = fakeTool('write', 'wrote');
  const exec = fakeTool('exec', 'ran');
  const pause = pauseForApproval();
  const door: ApprovalFrontDoor = { name: 'ops', ask: (r, signal) => (r.toolName === 'write' && r.conversationId === 'B' ? ('always' as ApprovalAnswer) : pause.ask(r, signal)) };
  const approval = new ApprovalManager({}, door);
  const provider = scriptedModel((request) => {
    const user = request.messages.map((m) => m.role).lastIndexOf('user');
    const name = String(request.messages[user].content).split(',')[(request.messages.length - 1 - user) / 2];
    return name ? { toolCalls: [{ id: `c${request.messages.length}`, name, arguments: {} }] } : { text: 'ok' };
  });
  const agent = createAgent({ provider, model: 'm', tools: [write, exec], approval, snapshotKey: KEY });
  return { agent, approval, ran: () => [...write.calls.map(() => 'write'), ...exec.calls.map(() => 'exec')] };
}

describe("in-process: a swapped conversationId never borrows the other conversation's allow-list", () => {
  async function setUp(conversationId: string | undefined = 'A') {
    const w = inProcess();
    await collect(w.agent.run({ message: 'write', conversationId: 'B' })); // B: write is allowed with `always`
    expect(w.approval.allowListFor('B').has('write')).toBe(true);
    const parked = done(await collect(w.agent.run({ message: 'exec,write', conversationId })));
    expect(parked.reason).toBe('paused');
    return { ...w, parked, snapshot: JSON.parse(JSON.stringify(parked.snapshot)) as TurnSnapshot, before: w.ran().length };
  }

  it('unsealed: SnapshotTamperedError, nothing runs', async () => {
    const { agent, parked, snapshot, ran, before } = await setUp();
    expect(await failure(agent.resume(swapped(snapshot, 'B'), { decisions: yes(parked), conversationId: 'A' }))).toBeInstanceOf(SnapshotTamperedError);
    expect(await failure(agent.resume(swapped(snapshot, 'B'), { decisions: yes(parked) }))).toBeInstanceOf(SnapshotTamperedError);
    expect(ran().length).toBe(before);
  });

  it.each<[string, string | undefined, string | null]>([
    ['a turn of A', 'A', 'A'],
    ['a turn without a conversation', undefined, null],
  ])('sealed again under the key, %s resumed in its own conversation: refused, nothing runs', async (_, conversationId, resumeIn) => {
    const { agent, approval, parked, snapshot, ran, before } = await setUp(conversationId);
    const err = await failure(agent.resume(swapped(snapshot, 'B', KEY), { decisions: yes(parked), conversationId: resumeIn }));
    expect(err).toBeInstanceOf(SnapshotMismatchError);
    expect(err!.message).toMatch(/another conversation/);
    expect(ran().length).toBe(before);
    expect([...approval.allowListFor('B')]).toEqual(['write']);
  });

  it('the genuine snapshot resumed in A runs exec on the decision, and write prompts again (parks): A has no always', async () => {
    const { agent, parked, snapshot, ran, before } = await setUp();
    const resumed = done(await collect(agent.resume(snapshot, { decisions: yes(parked), conversationId: 'A' })));
    expect(ran().slice(before)).toEqual(['exec']);
    expect([resumed.reason, resumed.pending!.map((p) => [p.toolName, p.conversationId])]).toEqual(['paused', [['write', 'A']]]);
  });
});

describe("on a durable store: the row's conversation counts, so a swapped snapshot borrows nothing", () => {
  /** B allowed write with `always` on this instance (its list is in the store and in memory); A parks at its first write. */
  async function setUp() {
    const store = memoryTurnStore();
    const ran: string[] = [];
    const durable = durableAgent(worldAgent({ ran }), { store });
    const b = done(await collect(durable.run({ message: 'twice please', conversationId: 'B' })));
    await durable.decide(b.snapshot!.turnId, b.pending![0].requestId, 'always', 'bob');
    expect(done(await collect(durable.continue(b.snapshot!.turnId))).reason).toBe('final');
    expect(await store.allowList('B')).toEqual(['write']);
    const a = done(await collect(durable.run({ message: 'twice please', conversationId: 'A' })));
    const turnId = a.snapshot!.turnId;
    await durable.decide(turnId, a.pending![0].requestId, 'yes', 'alice');
    return { store, durable, ran, turnId, row: (await store.getTurn(turnId))!, before: ran.length };
  }

  it.each<[string, string | undefined, new (...args: never[]) => Error]>([
    ['unsealed', undefined, SnapshotTamperedError],
    ['sealed again with the deployment key', WORLD_SNAPSHOT_KEY, SnapshotMismatchError],
  ])('%s: the turn fails, write one and write two never run, and no list changes', async (_, key, kind) => {
    const { store, durable, ran, turnId, row, before } = await setUp();
    expect(await store.updateTurn(turnId, row.attempt, { snapshot: swapped(row.snapshot!, 'B', key) })).toBe(true);
    const err = await failure(durable.continue(turnId));
    expect(err).toBeInstanceOf(kind);
    expect(ran.slice(before)).toEqual([]);
    expect((await store.getTurn(turnId))!.status).toBe('failed');
    expect(await store.allowList('A')).toEqual([]);
    expect(await store.allowList('B')).toEqual(['write']);
  });

  it('the genuine row resumes: write one on the decision, write two asks again (A has no always)', async () => {
    const { durable, ran, turnId, before } = await setUp();
    const resumed = done(await collect(durable.continue(turnId)));
    expect(ran.slice(before)).toEqual(['write one']);
    expect([resumed.reason, resumed.pending!.map((p) => p.conversationId)]).toEqual(['paused', ['A']]);
  });
});
