import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalManager,
  ConfigurationError,
  createAgent,
  pauseForApproval,
  SnapshotMismatchError,
  SnapshotReplayedError,
  SnapshotTamperedError,
  type ApprovalPolicy,
  type SlotState,
  type TurnEvent,
  type TurnEventOf,
  type TurnSnapshot,
} from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { sealSnapshot, snapshotKeyOf } from '../../src/loop/seal-snapshot.js';
import { leaksOf } from '../fixtures/leak-search.js';

const KEY = 'a test deployment key of 32 chars';

/** One batch: a read, then two writes (each needs an operator under a supervised policy). */
const script = [
  {
    toolCalls: [
      { id: 'r', name: 'read_file', arguments: { path: 'a.txt' } },
      { id: 'w1', name: 'write_file', arguments: { path: 'a.txt' } },
      { id: 'w2', name: 'write_file', arguments: { path: 'b.txt' } },
    ],
  },
  { text: 'done' },
];

function world(options: { key?: string; policy?: ApprovalPolicy } = {}) {
  const readFile = fakeTool('read_file', 'contents', { parameters: z.object({ path: z.string() }), risk: 'read' });
  const writeFile = fakeTool('write_file', 'written', { parameters: z.object({ path: z.string() }), risk: 'write' });
  const approval = new ApprovalManager(options.policy ?? { level: 'supervised' }, pauseForApproval());
  const agent = createAgent({
    provider: scriptedModel((request) => script[request.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'out of script' }),
    model: 'm',
    tools: [readFile, writeFile],
    approval,
    snapshotKey: options.key ?? KEY,
  });
  return { agent, approval, writeFile, readFile };
}

const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const done = (events: TurnEvent[]) => events.at(-1) as TurnEventOf<'done'>;
const stored = (events: TurnEvent[]) => JSON.parse(JSON.stringify(done(events).snapshot)) as TurnSnapshot;
const refusal = (events$: Observable<TurnEvent>) => collect(events$).then(() => undefined, (err: unknown) => err as Error);

/** A turn parked at the first write (the read is prepared `ready`, the second write pending). */
async function parked(options: Parameters<typeof world>[0] = {}) {
  const w = world(options);
  const events = await collect(w.agent.run({ message: 'go', conversationId: 'c1' }));
  const requestId = done(events).pending![0].requestId;
  return { ...w, events, snapshot: stored(events), requestId, yes: { decisions: { [requestId]: 'yes' as const } } };
}

/** The snapshot with its slots changed by `change`, sealed again under the key (a forger holding it). */
function forged(snapshot: TurnSnapshot, change: (slots: SlotState[]) => SlotState[], key = KEY): TurnSnapshot {
  const batch = snapshot.batch!;
  return sealSnapshot({ ...snapshot, batch: { ...batch, slots: change(batch.slots.slice()) } }, snapshotKeyOf(key), snapshot.seal!.sequence);
}

const awaiting = (slots: SlotState[]) => slots[1] as Extract<SlotState, { state: 'awaiting-approval' }>;

describe('a parked snapshot is sealed, and a resume checks the seal before anything else', () => {
  it('the snapshot carries a seal (sequence 1, nonce, MAC) and never the key', async () => {
    const { snapshot } = await parked();
    expect(snapshot.seal).toEqual({ sequence: 1, nonce: expect.any(String), mac: expect.any(String) });
    expect(leaksOf(snapshot, KEY)).toEqual([]);
  });

  const changes: [string, (s: TurnSnapshot) => unknown][] = [
    ['the waiting call’s arguments', (s) => ({ ...s, batch: { ...s.batch!, slots: s.batch!.slots.map((x, i) => (i === 1 ? { ...x, args: { path: '/etc/passwd' } } : x)) } })],
    ['the request’s arguments', (s) => ({ ...s, batch: { ...s.batch!, slots: s.batch!.slots.map((x, i) => (i === 1 ? { ...awaiting(s.batch!.slots.slice()), request: { ...awaiting(s.batch!.slots.slice()).request, arguments: { path: '/etc/passwd' } } } : x)) } })],
    ['a history message', (s) => ({ ...s, history: [{ role: 'user', content: 'something else' }] })],
    ['the seal’s sequence', (s) => ({ ...s, seal: { ...s.seal!, sequence: 2 } })],
    ['the seal removed', (s) => ({ ...s, seal: undefined })],
    ['the seal’s MAC cut short', (s) => ({ ...s, seal: { ...s.seal!, mac: s.seal!.mac.slice(4) } })],
    ['a field added', (s) => ({ ...s, extra: true })],
  ];
  for (const [name, change] of changes) {
    it(`changed: ${name} → SnapshotTamperedError (snapshot_tampered), nothing runs`, async () => {
      const { agent, snapshot, yes, writeFile, readFile, approval } = await parked();
      const err = await refusal(agent.resume(change(snapshot) as TurnSnapshot, yes));
      expect(err).toBeInstanceOf(SnapshotTamperedError);
      expect(err).toBeInstanceOf(SnapshotMismatchError);
      expect((err as SnapshotTamperedError).code).toBe('snapshot_tampered');
      expect(writeFile.calls).toEqual([]);
      expect(readFile.calls).toEqual([]);
      expect(approval.auditLog).toEqual([]);
    });
  }

  it('a snapshot sealed with another key (another deployment, or the default per-process key) is refused', async () => {
    const { snapshot, yes } = await parked({ key: 'another deployment key, 32 chars' });
    const { agent, writeFile } = world();
    expect(await refusal(agent.resume(snapshot, yes))).toBeInstanceOf(SnapshotTamperedError);
    const unkeyed = createAgent({ provider: scriptedModel([]), model: 'm', tools: [writeFile], approval: new ApprovalManager({}, pauseForApproval()) });
    expect(await refusal(unkeyed.resume(snapshot, yes))).toBeInstanceOf(SnapshotTamperedError);
    expect(writeFile.calls).toEqual([]);
  });

  it('a key shorter than 16 bytes is a ConfigurationError', () => {
    expect(() => world({ key: 'short' })).toThrow(ConfigurationError);
  });
});

describe('behind the seal, a forged snapshot is still refused (defence in depth)', () => {
  const forgeries: [string, (slots: SlotState[]) => SlotState[], RegExp][] = [
    ['the waiting call’s arguments changed after the operator saw the card', (slots) => slots.map((x, i) => (i === 1 ? { ...awaiting(slots), args: { path: '/etc/passwd' }, request: { ...awaiting(slots).request, arguments: { path: '/etc/passwd' } } } : x)), /not for the call it holds/],
    ['the waiting call’s arguments differ from its request', (slots) => slots.map((x, i) => (i === 1 ? { ...awaiting(slots), args: { path: '/etc/passwd' } } : x)), /not for the call it holds/],
    ['an injected ready, approved slot', (slots) => slots.map((x, i) => (i === 2 ? { state: 'ready', name: 'write_file', args: { path: 'b.txt' }, approved: true, prompted: false } : x)), /needs an approval it does not hold/],
    ['arguments its tool’s schema refuses', (slots) => slots.map((x, i) => (i === 0 ? { ...(x as Extract<SlotState, { state: 'ready' }>), args: { path: 42 } } : x)), /do not fit 'read_file'/],
    ['the waiting request moved to another conversation', (slots) => slots.map((x, i) => (i === 1 ? { ...awaiting(slots), request: { ...awaiting(slots).request, conversationId: 'victim' } } : x)), /another turn or conversation/],
  ];
  for (const [name, change, message] of forgeries) {
    it(`${name}: SnapshotMismatchError, nothing runs`, async () => {
      const { agent, snapshot, yes, writeFile, readFile } = await parked();
      const err = await refusal(agent.resume(forged(snapshot, change), yes));
      expect(err).toBeInstanceOf(SnapshotMismatchError);
      expect(err).not.toBeInstanceOf(SnapshotTamperedError);
      expect(err!.message).toMatch(message);
      expect(writeFile.calls).toEqual([]);
      expect(readFile.calls).toEqual([]);
    });
  }

  it('the decision skipped (the waiting slot turned ready with no decision): refused', async () => {
    const { agent, snapshot, writeFile } = await parked();
    const skipped = forged(snapshot, (slots) => slots.map((x, i) => (i === 1 ? { state: 'ready', name: 'write_file', args: { path: 'a.txt' }, approved: false, prompted: false } : x)));
    const err = await refusal(agent.resume(skipped, { decisions: {} }));
    expect(err).toBeInstanceOf(SnapshotMismatchError);
    expect(writeFile.calls).toEqual([]);
  });

  it('a slot marked approved, resumed under a policy that lets it run unapproved (readonly): refused', async () => {
    const { snapshot, yes } = await parked();
    const marked = forged(snapshot, (slots) => slots.map((x, i) => (i === 0 ? { ...(x as Extract<SlotState, { state: 'ready' }>), approved: true } : x)));
    const { agent, readFile } = world({ policy: { level: 'readonly' } });
    const err = await refusal(agent.resume(marked, yes));
    expect(err!.message).toMatch(/marked approved without an approval/);
    expect(readFile.calls).toEqual([]);
  });

  it('a slot that needed no approval when it parked, resumed under a policy that asks: refused', async () => {
    const { snapshot, yes } = await parked();
    const { agent, readFile } = world({ policy: { level: 'supervised', alwaysAsk: ['read_file'] } });
    const err = await refusal(agent.resume(snapshot, yes));
    expect(err!.message).toMatch(/'read_file'\) needs an approval it does not hold/);
    expect(readFile.calls).toEqual([]);
  });
});

describe('a parked snapshot resumes once', () => {
  it('resumed twice in this process: the second is SnapshotReplayedError, and nothing of it runs', async () => {
    const { agent, snapshot, yes, writeFile, approval } = await parked();
    const first = await collect(agent.resume(snapshot, yes));
    expect(done(first).reason).toBe('paused'); // at the second write: nothing of the batch ran yet
    const audited = approval.auditLog.length;
    const again = await refusal(agent.resume(structuredClone(snapshot), yes));
    expect(again).toBeInstanceOf(SnapshotReplayedError);
    expect(again).toMatchObject({ code: 'snapshot_replayed', turnId: snapshot.turnId, sequence: 1 });
    // in a fresh agent too: the memory is the process's
    expect(await refusal(world().agent.resume(snapshot, yes))).toBeInstanceOf(SnapshotReplayedError);
    expect(approval.auditLog.length).toBe(audited);
    expect(writeFile.calls).toEqual([]);
  });

  it('the next park of the same turn seals sequence 2, which resumes once in its turn', async () => {
    const { agent, snapshot, yes, writeFile } = await parked();
    const second = done(await collect(agent.resume(snapshot, yes)));
    expect(second.snapshot!.seal!.sequence).toBe(2);
    const last = await collect(agent.resume(stored([second]), { decisions: { [second.pending![0].requestId]: 'yes' } }));
    expect(done(last).reason).toBe('final');
    expect(writeFile.calls.map((c) => c.args)).toEqual([{ path: 'a.txt' }, { path: 'b.txt' }]);
  });

  it('two runs parked with the same content are two snapshots: each resumes once', async () => {
    const a = await parked();
    const b = await parked();
    expect(a.snapshot.seal!.nonce).not.toBe(b.snapshot.seal!.nonce);
    expect(done(await collect(a.agent.resume(a.snapshot, a.yes))).reason).toBe('paused');
    expect(done(await collect(b.agent.resume(b.snapshot, b.yes))).reason).toBe('paused');
  });
});

describe('what a parked turn hands out keeps secrets masked; the raw arguments stay in the snapshot', () => {
  it('done.pending shows every argument, credential-shaped values masked', async () => {
    const token = 'sk-proj-abcdefghijklmnopqrstuvwx1234';
    const w = world();
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'a.txt', note: token } }] }]),
      model: 'm',
      tools: [fakeTool('write_file', 'written', { risk: 'write' })],
      approval: w.approval,
      snapshotKey: KEY,
    });
    const parkedDone = done(await collect(agent.run({ message: 'go' })));
    const shown = parkedDone.pending![0].arguments as Record<string, string>;
    expect(shown.path).toBe('a.txt');
    expect(Object.keys(shown)).toEqual(['path', 'note']);
    expect(leaksOf(shown.note, 'abcdefghijklmnop')).toEqual([]);
    const slot = parkedDone.snapshot!.batch!.slots[0] as Extract<SlotState, { state: 'awaiting-approval' }>;
    expect(slot.request.arguments).toEqual({ path: 'a.txt', note: token });
  });
});
