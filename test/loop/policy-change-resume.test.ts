import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalManager,
  createAgent,
  mcpTools,
  pauseForApproval,
  SnapshotMismatchError,
  type ApprovalPolicy,
  type Tool,
  type TurnEvent,
  type TurnEventOf,
  type TurnSnapshot,
} from '../../src/index.js';
import { durableAgent, memoryTurnStore } from '../../src/durable/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { connectFixture } from '../mcp/fixture-client.js';

/**
 * A turn parks under one approval policy and resumes on an agent whose policy changed since. A
 * call that was prepared `ready` without an operator (approved by the old policy, by risk, by an
 * allow-list) is checked against the new one: where it now needs a prompt, the resume is refused
 * (`SnapshotMismatchError`) and nothing of the batch runs; where the new policy is looser, the
 * turn goes on as it would have.
 */

const KEY = 'policy change test key, 32 chars';
const script = [
  { toolCalls: [{ id: 'r', name: 'read_file', arguments: { path: 'a' } }, { id: 'w', name: 'write_file', arguments: { path: 'b' } }, { id: 'd', name: 'deploy', arguments: { path: 'c' } }] },
  { text: 'done' },
];
const args = z.object({ path: z.string() });

function world(policy: ApprovalPolicy, risks: { read?: 'read' | 'write' } = {}, conversationId?: string) {
  const tools = [
    fakeTool('read_file', 'contents', { parameters: args, risk: risks.read ?? 'read' }),
    fakeTool('write_file', 'written', { parameters: args, risk: 'write' }),
    fakeTool('deploy', 'deployed', { parameters: args, risk: 'exec' }),
  ];
  const approval = new ApprovalManager(policy, pauseForApproval());
  const agent = createAgent({ name: 'ops', provider: scriptedModel((r) => script[r.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'x' }), model: 'm', tools, approval, snapshotKey: KEY });
  const ran = () => tools.flatMap((t) => t.calls.map(() => t.name));
  return { agent, approval, ran, conversationId };
}

const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const done = (events: TurnEvent[]) => events.at(-1) as TurnEventOf<'done'>;
const failure = (events$: Observable<TurnEvent>) => collect(events$).then(() => undefined, (err: unknown) => err as Error);
const PARKED_UNDER: ApprovalPolicy = { level: 'supervised', autoApprove: ['write_file'] };

/** Parks under PARKED_UNDER: read_file ready (a read), write_file ready (autoApprove), deploy waiting. */
async function parked(conversationId = 'c1') {
  const w = world(PARKED_UNDER);
  const events = await collect(w.agent.run({ message: 'go', conversationId }));
  const snapshot = JSON.parse(JSON.stringify(done(events).snapshot)) as TurnSnapshot;
  expect(snapshot.batch!.slots.map((s) => s.state)).toEqual(['ready', 'ready', 'awaiting-approval']);
  return { snapshot, yes: { decisions: { [done(events).pending![0].requestId]: 'yes' as const } }, ran: w.ran };
}

describe('resumed under a stricter policy, a call prepared without an operator is refused, never run', () => {
  it.each<[string, ApprovalPolicy, { read?: 'read' | 'write' }, RegExp]>([
    ['autoApprove no longer names write_file', { level: 'supervised' }, {}, /'write_file'\) needs an approval it does not hold/],
    ['alwaysAsk names the read', { level: 'supervised', autoApprove: ['write_file'], alwaysAsk: ['READ_FILE'] }, {}, /'read_file'\) needs an approval/],
    ['alwaysAsk: *', { level: 'supervised', autoApprove: ['*'], alwaysAsk: ['*'] }, {}, /needs an approval it does not hold/],
    ['the read tool now declares write', PARKED_UNDER, { read: 'write' }, /'read_file'\) needs an approval/],
  ])('%s: SnapshotMismatchError, nothing runs', async (_, policy, risks, message) => {
    const { snapshot, yes, ran } = await parked();
    const stricter = world(policy, risks);
    const err = await failure(stricter.agent.resume(snapshot, yes));
    expect(err).toBeInstanceOf(SnapshotMismatchError);
    expect(err!.message).toMatch(message);
    expect([...ran(), ...stricter.ran()]).toEqual([]);
    expect(stricter.approval.auditLog).toEqual([]);
  });

  it("an allow-list the call was prepared under, dropped before the resume: refused", async () => {
    const w = world({ level: 'supervised' });
    w.approval.allowInConversation('write_file', 'c9');
    const events = await collect(w.agent.run({ message: 'go', conversationId: 'c9' }));
    const snapshot = done(events).snapshot!;
    w.approval.forgetConversation('c9');
    const err = await failure(w.agent.resume(snapshot, { decisions: { [done(events).pending![0].requestId]: 'yes' } }));
    expect(err!.message).toMatch(/'write_file'\) needs an approval it does not hold/);
    expect(w.ran()).toEqual([]);
  });
});

describe('resumed under a looser policy, the turn goes on', () => {
  it.each<[string, ApprovalPolicy]>([
    ['the same policy', PARKED_UNDER],
    ['deploy now auto-approved too', { level: 'supervised', autoApprove: ['write_file', 'deploy'] }],
    ['full', { level: 'full' }],
    ['readonly (nothing prompts)', { level: 'readonly' }],
  ])('%s: the decision applies and the batch runs', async (_, policy) => {
    const { snapshot, yes } = await parked();
    const looser = world(policy);
    const events = await collect(looser.agent.resume(snapshot, yes));
    expect(done(events).reason).toBe('final');
    expect(looser.ran()).toEqual(['read_file', 'write_file', 'deploy']);
  });
});

describe('an MCP server trusted when the turn parked, untrusted when it resumes', () => {
  let fx: Client;
  beforeAll(async () => {
    fx = await connectFixture();
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
  });

  const agentOn = (tools: Tool[]) =>
    createAgent({
      name: 'docs',
      provider: scriptedModel([{ toolCalls: [{ id: 's', name: 'fx__search_docs', arguments: { query: 'q' } }, { id: 'e', name: 'fx__echo', arguments: { text: 'hi' } }] }, { text: 'ok' }]),
      model: 'm',
      tools,
      approval: new ApprovalManager({}, pauseForApproval()),
      snapshotKey: KEY,
    });

  it('search_docs was ready as a read; its readOnlyHint no longer counts, so the resume is refused', async () => {
    const parkedDone = done(await collect(agentOn(await mcpTools(fx, { server: 'fx', trustAnnotations: true })).run({ message: 'go' })));
    expect(parkedDone.snapshot!.batch!.slots.map((s) => s.state)).toEqual(['ready', 'awaiting-approval']);
    const untrusted = agentOn(await mcpTools(fx, { server: 'fx' }));
    const err = await failure(untrusted.resume(parkedDone.snapshot!, { decisions: { [parkedDone.pending![0].requestId]: 'yes' } }));
    expect(err!.message).toMatch(/'fx__search_docs'\) needs an approval it does not hold/);
  });
});

describe('on a durable store: a worker whose agent is stricter fails the turn, running nothing', () => {
  it('parked by one instance, continued by another with a stricter policy', async () => {
    const store = memoryTurnStore();
    const first = world(PARKED_UNDER);
    const parkedDone = done(await collect(durableAgent(first.agent, { store }).run({ message: 'go', conversationId: 'd1' })));
    const turnId = parkedDone.snapshot!.turnId;
    const stricter = world({ level: 'supervised' });
    const durable = durableAgent(stricter.agent, { store });
    await durable.decide(turnId, parkedDone.pending![0].requestId, 'yes', 'alice');
    expect(await failure(durable.continue(turnId))).toBeInstanceOf(SnapshotMismatchError);
    expect((await store.getTurn(turnId))!.status).toBe('failed');
    expect([...first.ran(), ...stricter.ran()]).toEqual([]);
  });
});
