import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ApprovalManager,
  createAgent,
  pauseForApproval,
  SnapshotTamperedError,
  stepCountIs,
  type AgentConfig,
  type TurnEvent,
  type TurnEventOf,
  type TurnSnapshot,
} from '../../src/index.js';
import { durableAgent, memoryTurnStore } from '../../src/durable/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { WORLD_SNAPSHOT_KEY, worldModel, worldTools } from '../durable/world.js';

type Done = TurnEventOf<'done'>;
const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const doneOf = (events: TurnEvent[]) => events.at(-1) as Done;

/** The durable suites' agent (it parks at every approval), with loop control; `ran` records each tool that ran. */
function worldWith(control: Partial<AgentConfig>, ran: string[] = [], provider = worldModel()) {
  return createAgent({
    name: 'world',
    provider,
    model: 'm',
    tools: worldTools({ ran }),
    approval: new ApprovalManager({ level: 'supervised' }, pauseForApproval()),
    clock: { now: () => 0 },
    snapshotKey: WORLD_SNAPSHOT_KEY,
    ...control,
  });
}

describe('a parked turn, resumed, keeps honouring loop control', () => {
  it('stopWhen: a turn parked in its second iteration stops after that round when resumed in a fresh agent from the store', async () => {
    const store = memoryTurnStore();
    const first = durableAgent(worldWith({ stopWhen: stepCountIs(2) }), { store });
    // 'note': a lookup, then a lookup and a write (parks), then the answer 'noted'
    const parked = doneOf(await collect(first.run({ message: 'note this', conversationId: 'c1' })));
    expect(parked).toMatchObject({ reason: 'paused', iterations: 2 });
    const turnId = parked.snapshot!.turnId;
    await first.decide(turnId, parked.pending![0].requestId, 'yes', 'alice');

    const ran: string[] = [];
    const provider = worldModel();
    const other = durableAgent(worldWith({ stopWhen: stepCountIs(2) }, ran, provider), { store });
    const done = doneOf(await collect(other.continue(turnId)));
    expect(done).toMatchObject({ reason: 'stopped', text: '', iterations: 2 });
    expect(ran).toEqual(['lookup b', 'write hello']);
    expect(provider.requests).toHaveLength(0); // the answer 'noted' is never asked for
    expect(done.history.at(-1)).toMatchObject({ role: 'tool', content: 'wrote hello (approved=true)' });
    expect(await store.getTurn(turnId)).toMatchObject({ status: 'done', outcome: { reason: 'stopped', text: '' } });
  });

  it("a resume's own stopWhen is added to the agent's", async () => {
    const agent = worldWith({});
    const parked = doneOf(await collect(agent.run({ message: 'twice' })));
    const done = doneOf(await collect(agent.resume(parked.snapshot!, { decisions: { [parked.pending![0].requestId]: 'yes' }, stopWhen: stepCountIs(1) })));
    expect(done).toMatchObject({ reason: 'stopped', iterations: 1 });
  });

  it("prepareIteration's narrowing is kept in the parked batch: calls after the parked one are prepared against it", async () => {
    const ran: string[] = [];
    const steps = [
      { toolCalls: [{ id: 'w', name: 'write', arguments: { text: 'x' } }, { id: 'l', name: 'lookup', arguments: { key: 'k' } }] },
      { text: 'done' },
    ];
    // the step follows from the history, so the resumed turn goes on where it parked
    const script = scriptedModel((request) => steps[request.messages.filter((m) => m.role === 'assistant').length]);
    const agent = worldWith({ prepareIteration: (state) => (state.iteration === 1 ? { tools: ['write'] } : undefined) }, ran, script);
    const parked = doneOf(await collect(agent.run({ message: 'go' })));
    expect(parked.snapshot!.batch).toMatchObject({ offered: ['write'], slots: [{ state: 'awaiting-approval' }, { state: 'pending' }] });
    const stored = JSON.parse(JSON.stringify(parked.snapshot)) as TurnSnapshot;
    const decisions = { [parked.pending![0].requestId]: 'yes' as const };

    // the narrowing is sealed with the rest: a snapshot without it is refused
    const { offered: _dropped, ...widened } = stored.batch!;
    await expect(collect(agent.resume({ ...stored, batch: widened }, { decisions }))).rejects.toThrow(SnapshotTamperedError);

    const done = doneOf(await collect(agent.resume(stored, { decisions })));
    expect(done.reason).toBe('final');
    expect(ran).toEqual(['write x']);
    expect(done.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'wrote x (approved=true)',
      'Tool not available in this turn: lookup',
    ]);
    expect(script.requests.map((r) => r.tools?.map((t) => t.name))).toEqual([['write'], ['lookup', 'write', 'slow', 'again']]);
  });
});
