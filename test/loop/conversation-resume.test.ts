import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  SnapshotMismatchError,
  SnapshotTamperedError,
  ActivationStore,
  ApprovalManager,
  createAgent,
  defineTool,
  pauseForApproval,
  type ApprovalAnswer,
  type ApprovalFrontDoor,
  type ApprovalRequest,
  type ResumeDecision,
  type TurnEvent,
  type TurnEventOf,
  type TurnSnapshot,
} from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { sealSnapshot, snapshotKeyOf } from '../../src/loop/seal-snapshot.js';

const remoteWrite = defineTool({ name: 'remote_write', description: 'Writes remotely', parameters: z.object({}), execute: () => 'written remotely' });

/** The message names the calls of the turn, one per iteration: 'write,exec,write'. */
const provider = () =>
  scriptedModel((request) => {
    const user = request.messages.map((m) => m.role).lastIndexOf('user');
    const name = String(request.messages[user].content).split(',')[(request.messages.length - 1 - user) / 2];
    if (!name) return { text: 'ok' };
    return { toolCalls: [{ id: `c${request.messages.length}`, name, arguments: name === 'tool_search' ? { query: 'select:remote_write' } : {} }] };
  });

/** Answers by tool name; `exec` (and anything unlisted) parks the turn. */
function door(answers: Record<string, ApprovalAnswer>) {
  const pause = pauseForApproval();
  const asked: ApprovalRequest[] = [];
  const front: ApprovalFrontDoor = { name: 'ops', ask: (r, signal) => (asked.push(r), answers[r.toolName] ?? pause.ask(r, signal)) };
  return { asked, front };
}

function agentWith(front: ApprovalFrontDoor, approval = new ApprovalManager({}, front), activated = new ActivationStore()) {
  const tools = [fakeTool('write', 'wrote'), fakeTool('exec', 'ran')];
  return { approval, agent: createAgent({ provider: provider(), model: 'm', tools, deferredTools: [remoteWrite], approval, activated }) };
}

const collect = (events$: ReturnType<ReturnType<typeof createAgent>['run']>) => lastValueFrom(events$.pipe(toArray()));
const done = (events: TurnEvent[]) => events.at(-1) as TurnEventOf<'done'>;
const results = (events: TurnEvent[]) => events.flatMap((e) => (e.type === 'tool-result' ? [`${e.name}:${e.outcome}`] : []));
const decisions = (parked: TurnEvent[], decision: ResumeDecision) => ({ decisions: { [done(parked).pending![0].requestId]: decision } });
const fromJson = (events: TurnEvent[]) => JSON.parse(JSON.stringify(done(events).snapshot)) as TurnSnapshot;

describe('a resumed turn keeps the allow-list of its conversation (else of itself)', () => {
  it("always in turn 1 of A; turn 2 of A parks; after resume, A's allow-list still approves write", async () => {
    const { asked, front } = door({ write: 'always' });
    const { agent } = agentWith(front);
    expect(results(await collect(agent.run({ message: 'write', conversationId: 'A' })))).toEqual(['write:executed']);
    const parked = await collect(agent.run({ message: 'exec,write', conversationId: 'A' }));
    expect(done(parked).reason).toBe('paused');
    const resumed = await collect(agent.resume(fromJson(parked), decisions(parked, 'yes')));
    expect(results(resumed)).toEqual(['exec:executed', 'write:executed']);
    expect(resumed.some((e) => e.type === 'approval-request')).toBe(false);
    expect(asked.map((r) => r.toolName)).toEqual(['write', 'exec']);
  });

  it("the same resume in B, after A's always, asks again for write", async () => {
    const { asked, front } = door({ write: 'always' });
    const { agent } = agentWith(front);
    await collect(agent.run({ message: 'write', conversationId: 'A' }));
    const parked = await collect(agent.run({ message: 'exec,write', conversationId: 'B' }));
    const resumed = await collect(agent.resume(fromJson(parked), decisions(parked, 'yes')));
    expect(results(resumed)).toEqual(['exec:executed', 'write:executed']);
    expect(asked.map((r) => `${r.toolName}@${r.conversationId}`)).toEqual(['write@A', 'exec@B', 'write@B']);
  });

  it('a turn without a conversation id keeps its own allow-list across park and resume, and no other turn gets it', async () => {
    const { asked, front } = door({ write: 'always' });
    const { agent } = agentWith(front);
    const parked = await collect(agent.run({ message: 'write,exec,write' }));
    const resumed = await collect(agent.resume(fromJson(parked), decisions(parked, 'yes')));
    expect(results(resumed)).toEqual(['exec:executed', 'write:executed']);
    expect(asked.map((r) => r.toolName)).toEqual(['write', 'exec']);
    await collect(agent.run({ message: 'write' }));
    expect(asked.map((r) => r.toolName)).toEqual(['write', 'exec', 'write']);
  });

  it("an 'always' given on resume lands in the snapshot's conversation, not in another's", async () => {
    const { asked, front } = door({});
    const { agent, approval } = agentWith(front);
    const parked = await collect(agent.run({ message: 'exec', conversationId: 'A' }));
    await collect(agent.resume(fromJson(parked), decisions(parked, 'always')));
    expect(approval.allowListFor('A').has('exec')).toBe(true);
    expect(results(await collect(agent.run({ message: 'exec', conversationId: 'A' })))).toEqual(['exec:executed']);
    expect(done(await collect(agent.run({ message: 'exec', conversationId: 'B' }))).reason).toBe('paused');
    expect(asked.map((r) => r.conversationId)).toEqual(['A', 'B']);
  });

  it('a snapshot whose stored request names another conversation is refused, sealed again or not, and grants nothing', async () => {
    const { front } = door({});
    const { agent, approval } = agentWith(front);
    const parked = await collect(agent.run({ message: 'exec', conversationId: 'A' }));
    const forged = fromJson(parked);
    const slot = forged.batch!.slots.find((s) => s.state === 'awaiting-approval') as { request: ApprovalRequest };
    (slot as { request: ApprovalRequest }).request = { ...slot.request, conversationId: 'victim' };
    const tampered = await collect(agent.resume(forged, decisions(parked, 'always'))).catch((err: unknown) => err);
    expect(tampered).toBeInstanceOf(SnapshotTamperedError);
    const resealed = sealSnapshot(forged, snapshotKeyOf(undefined), 1);
    const refused = await collect(agent.resume(resealed, decisions(parked, 'always'))).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SnapshotMismatchError);
    expect((refused as Error).message).toMatch(/belongs to another turn or conversation/);
    expect(approval.allowListFor('victim').size).toBe(0);
    expect(approval.allowListFor('A').size).toBe(0);
    // the genuine snapshot still resumes, and its `always` lands in its own conversation
    await collect(agent.resume(fromJson(parked), decisions(parked, 'always')));
    expect(approval.allowListFor('A').has('exec')).toBe(true);
  });
});

describe('a resumed turn gets its activated deferred tools back from its snapshot', () => {
  it.each([['no conversation id', undefined], ['a conversation', 'A']])('%s: resumed in a fresh agent, the parked remote_write runs', async (_, conversationId) => {
    const parkedIn = agentWith(door({}).front).agent;
    const parked = await collect(parkedIn.run({ message: 'tool_search,remote_write', conversationId }));
    expect(done(parked).snapshot!.activated).toEqual(['remote_write']);
    const fresh = agentWith(door({}).front).agent;
    const resumed = await collect(fresh.resume(fromJson(parked), decisions(parked, 'yes')));
    expect(results(resumed)).toEqual(['remote_write:executed']);
  });
});
