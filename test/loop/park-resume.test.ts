import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalManager,
  backchannelApproval,
  createAgent,
  defineTool,
  pauseForApproval,
  SnapshotMismatchError,
  type ApprovalAnswer,
  type ApprovalFrontDoor,
  type ProviderRequest,
  type ResumeDecision,
  type TurnEvent,
  type TurnEventOf,
  type TurnSnapshot,
} from '../../src/index.js';
import { scriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { sealSnapshot, snapshotKeyOf } from '../../src/loop/seal-snapshot.js';

type Done = TurnEventOf<'done'>;

function tools(ran: string[], schema: 'v1' | 'v2' = 'v1') {
  const lookup = defineTool({ name: 'lookup', description: 'Reads', parameters: z.object({ key: z.string() }), execute: ({ key }) => (ran.push(`lookup ${key}`), `value of ${key}`) });
  const write = defineTool({
    name: 'write',
    description: 'Writes',
    parameters: schema === 'v1' ? z.object({ text: z.string() }) : z.object({ text: z.string(), force: z.boolean().optional() }),
    approvalMarker: true,
    execute: (args: { text: string; approved?: boolean }) => (ran.push(`write ${args.text} approved=${args.approved}`), `wrote ${args.text}`),
  });
  const exec = defineTool({ name: 'exec', description: 'Runs', parameters: z.object({ cmd: z.string() }), execute: ({ cmd }) => (ran.push(`exec ${cmd}`), `ran ${cmd}`) });
  return [lookup, write, exec];
}

/** The model's step follows from the history (one per assistant message), so any process can continue it. */
const modelOf = (script: readonly ScriptedStep[]) =>
  scriptedModel((request: ProviderRequest) => script[request.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'out of script' });

interface World {
  readonly script: readonly ScriptedStep[];
  readonly ids: () => string;
  readonly approval: ApprovalManager;
  readonly ran: string[];
  readonly name?: string;
  readonly schema?: 'v1' | 'v2';
  readonly parallel?: boolean;
}

function agentIn(world: World) {
  return createAgent({
    name: world.name ?? 'agent',
    provider: modelOf(world.script),
    model: 'm',
    tools: tools(world.ran, world.schema),
    approval: world.approval,
    ids: world.ids,
    clock: { now: () => 0 }, // durations are the same in every run
    knobs: { parallelTools: world.parallel ?? false },
  });
}

const counter = () => {
  let n = 0;
  return () => `id${++n}`;
};
const policy = { level: 'supervised' as const, autoApprove: ['lookup'], alwaysAsk: [] as string[] };
const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
/** The events, and the error the turn ended with (as a last pseudo-event), for comparing two runs. */
const settle = (events$: import('rxjs').Observable<TurnEvent>): Promise<(TurnEvent | { error: string })[]> => {
  const seen: (TurnEvent | { error: string })[] = [];
  return new Promise((resolve) =>
    events$.subscribe({
      next: (e) => seen.push(e),
      error: (err: Error) => resolve([...seen, { error: `${err.name}: ${err.message}` }]),
      complete: () => resolve(seen),
    }),
  );
};
const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const script: ScriptedStep[] = [
  { toolCalls: [{ id: 'a', name: 'lookup', arguments: { key: 'k' } }, { id: 'b', name: 'write', arguments: { text: 'x' } }, { id: 'c', name: 'lookup', arguments: { key: 'j' } }] },
  { text: 'all done' },
];

describe('pauseForApproval parks the turn at the first call that needs a prompt', () => {
  it("ends the turn 'paused' with the snapshot and the request waiting; nothing of the batch has run", async () => {
    const ran: string[] = [];
    const agent = agentIn({ script, ids: counter(), approval: new ApprovalManager(policy, pauseForApproval()), ran });
    const events = await collect(agent.run({ message: 'go' }));
    expect(events.map((e) => e.type)).toEqual(['iteration', 'approval-request', 'done']);
    const done = events.at(-1) as Done;
    const asked = events[1] as TurnEventOf<'approval-request'>;
    expect(done).toMatchObject({ reason: 'paused', text: '', iterations: 1 });
    expect(done.pending).toEqual([expect.objectContaining({ requestId: asked.requestId, toolName: 'write' })]);
    expect(done.snapshot!.batch!.slots.map((s) => s.state)).toEqual(['ready', 'awaiting-approval', 'pending']);
    expect(done.history).toEqual([{ role: 'user', content: 'go' }]);
    expect(ran).toEqual([]);
    expect(roundTrip(done.snapshot)).toEqual(done.snapshot);
    const outcome = await agent.complete({ message: 'go' });
    expect(outcome).toMatchObject({ reason: 'paused', pending: [expect.objectContaining({ toolName: 'write' })] });
    expect(outcome.snapshot?.batch).toBeDefined();
  });

  for (const [decision, written] of [
    ['yes', ['lookup k', 'write x approved=true', 'lookup j']],
    ['always', ['lookup k', 'write x approved=true', 'lookup j']],
    ['no', ['lookup k', 'lookup j']],
    [{ replaceWith: 'pretend it was written' }, ['lookup k', 'lookup j']],
  ] as const) {
    it(`resumed with ${JSON.stringify(decision)} in a fresh agent, from JSON, it reaches the history of the turn answered at once`, async () => {
      const onceRan: string[] = [];
      const answer = decision as ApprovalAnswer;
      const once = agentIn({ script, ids: counter(), approval: new ApprovalManager(policy, backchannelApproval(() => answer)), ran: onceRan });
      const whole = await collect(once.run({ message: 'go' }));

      const ids = counter();
      const parkedRan: string[] = [];
      const approval = new ApprovalManager(policy, pauseForApproval());
      const parked = await collect(agentIn({ script, ids, approval, ran: parkedRan }).run({ message: 'go' }));
      const done = parked.at(-1) as Done;
      const stored = JSON.stringify(done.snapshot);
      const resumedRan: string[] = [];
      const resumed = await collect(
        agentIn({ script, ids, approval, ran: resumedRan }).resume(JSON.parse(stored) as TurnSnapshot, {
          decisions: { [done.pending![0].requestId]: decision as ResumeDecision },
          decidedBy: 'backchannel',
        }),
      );
      expect([...parked.slice(0, -1), ...resumed]).toEqual(whole);
      expect(resumedRan).toEqual(written);
      expect(onceRan).toEqual(written);
    });
  }
});

describe('a snapshot that does not match fails closed: SnapshotMismatchError, and nothing runs', () => {
  async function parkedTurn() {
    const ran: string[] = [];
    const approval = new ApprovalManager(policy, pauseForApproval());
    const events = await collect(agentIn({ script, ids: counter(), approval, ran }).run({ message: 'go' }));
    const done = events.at(-1) as Done;
    return { snapshot: roundTrip(done.snapshot!), requestId: done.pending![0].requestId, approval };
  }

  const cases: [string, (s: TurnSnapshot, id: string) => { snapshot: unknown; decisions: Record<string, ResumeDecision>; world?: Partial<World> }, RegExp][] = [
    ['an unknown version', (s, id) => ({ snapshot: { ...s, version: 2 }, decisions: { [id]: 'yes' } }), /Unknown turn snapshot version 2/],
    ['no version at all', (s, id) => ({ snapshot: { ...s, version: undefined }, decisions: { [id]: 'yes' } }), /Unknown turn snapshot version/],
    ['a malformed history', (s, id) => ({ snapshot: { ...s, history: [{ role: 'robot', content: 1 }] }, decisions: { [id]: 'yes' } }), /Malformed turn snapshot: history/],
    ['a malformed slot', (s, id) => ({ snapshot: { ...s, batch: { ...s.batch!, slots: [{ state: 'ready' }] } }, decisions: { [id]: 'yes' } }), /Malformed/],
    ['another agent', (s, id) => ({ snapshot: s, decisions: { [id]: 'yes' }, world: { name: 'other' } }), /belongs to agent 'agent', not 'other'/],
    ['a decision for an id that is not pending', (s, id) => ({ snapshot: s, decisions: { [id]: 'yes', nope: 'yes' } }), /No approval is pending with id 'nope'/],
    ['no decision for the pending id', (s) => ({ snapshot: s, decisions: {} }), /No decision for the pending approval/],
    ['a decision that is not one', (s, id) => ({ snapshot: s, decisions: { [id]: 'maybe' as never } }), /A decision must be/],
    ['a tool whose schema changed', (s, id) => ({ snapshot: s, decisions: { [id]: 'yes' }, world: { schema: 'v2' } }), /parameters of 'write' changed/],
    ['a tool the agent no longer has', (s, id) => ({ snapshot: { ...s, batch: { ...s.batch!, slots: s.batch!.slots.map((x) => (x.state === 'ready' ? { ...x, name: 'gone' } : x)) } }, decisions: { [id]: 'yes' } }), /'gone', which this agent no longer has/],
    ['nothing waiting', (s, id) => ({ snapshot: { ...s, batch: undefined }, decisions: { [id]: 'yes' } }), /no approval waiting/],
  ];

  /** A snapshot changed and sealed again with the process's key: what only a holder of the key could make. */
  const resealed = (changed: TurnSnapshot, original: TurnSnapshot): TurnSnapshot =>
    changed === original ? changed : sealSnapshot(changed, snapshotKeyOf(undefined), 1);

  for (const [name, mutate, message] of cases) {
    for (const sealed of [false, true]) {
      it(`${name}${sealed ? '' : ' (as changed, unsealed)'}`, async () => {
        const { snapshot, requestId, approval } = await parkedTurn();
        const { snapshot: changed, decisions, world } = mutate(snapshot, requestId);
        const broken = sealed ? resealed(changed as TurnSnapshot, snapshot) : changed;
        const ran: string[] = [];
        const agent = agentIn({ script, ids: counter(), approval, ran, ...world });
        const failure = await collect(agent.resume(broken as TurnSnapshot, { decisions })).catch((err: unknown) => err);
        expect(failure).toBeInstanceOf(SnapshotMismatchError);
        // a snapshot changed after it was sealed fails on its seal, before any other check
        const expected = !sealed && changed !== snapshot ? /changed after it was sealed/ : message;
        expect((failure as Error).message).toMatch(expected);
        expect((failure as { code: string }).code).toBe(!sealed && changed !== snapshot ? 'snapshot_tampered' : 'snapshot_mismatch');
        expect(ran).toEqual([]);
        expect((agent.resolved.provider as unknown as { requests: unknown[] }).requests).toEqual([]);
        expect(approval.auditLog).toEqual([]);
      });
    }
  }
});

describe('a parked and resumed turn is the turn answered at once (random scenarios)', () => {
  const callArb = fc.record({ name: fc.constantFrom('lookup', 'write', 'exec'), v: fc.integer({ min: 0, max: 2 }) });
  const answerArb = fc.constantFrom<ResumeDecision>('yes', 'no', 'always', { replaceWith: 'done by hand' });
  const scenarioArb = fc.record({
    batches: fc.array(fc.array(callArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
    answers: fc.array(answerArb, { minLength: 12, maxLength: 12 }),
    parallel: fc.boolean(),
  });

  it('same events (less the paused ends) and same history, over 150 scenarios', async () => {
    let resumes = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ batches, answers, parallel }) => {
        const script: ScriptedStep[] = [
          ...batches.map((batch, b) => ({
            toolCalls: batch.map((call, i) => ({ id: `k${b}_${i}`, name: call.name, arguments: call.name === 'write' ? { text: `t${call.v}` } : call.name === 'exec' ? { cmd: `c${call.v}` } : { key: `k${call.v}` } })),
          })),
          { text: 'final' },
        ];
        const gated = { ...policy, alwaysAsk: ['exec'] };
        let asked = 0;
        const onceDoor: ApprovalFrontDoor = backchannelApproval(() => answers[asked++ % answers.length] as ApprovalAnswer);
        const whole = await settle(agentIn({ script, ids: counter(), approval: new ApprovalManager(gated, onceDoor), ran: [], parallel }).run({ message: 'go' }));

        const ids = counter();
        const approval = new ApprovalManager(gated, pauseForApproval());
        let segment = await settle(agentIn({ script, ids, approval, ran: [], parallel }).run({ message: 'go' }));
        const joined: (TurnEvent | { error: string })[] = [];
        let answered = 0;
        for (;;) {
          const done = segment.at(-1) as Done;
          if ('error' in done || done.reason !== 'paused') {
            joined.push(...segment);
            break;
          }
          joined.push(...segment.slice(0, -1));
          resumes++;
          const snapshot = roundTrip(done.snapshot!);
          const decisions = { [done.pending![0].requestId]: answers[answered++ % answers.length] };
          segment = await settle(agentIn({ script, ids, approval, ran: [], parallel }).resume(snapshot, { decisions, decidedBy: 'backchannel' }));
        }
        expect(joined).toEqual(whole);
      }),
      { numRuns: 150, seed: 17 },
    );
    expect(resumes).toBeGreaterThan(50);
  });
});
