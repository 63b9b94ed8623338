import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, type ApprovalAnswer, type ApprovalFrontDoor, type ApprovalRequest, type TurnInput } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';

/** Each turn calls `deploy` `calls` times, one per iteration, then answers. */
function deployAgent(door: ApprovalFrontDoor, calls = 1, approval = new ApprovalManager({}, door)) {
  const provider = scriptedModel((req) => {
    const sinceUser = req.messages.length - 1 - req.messages.map((m) => m.role).lastIndexOf('user'); // 2 per iteration
    return sinceUser / 2 < calls ? { toolCalls: [{ id: `d${sinceUser}`, name: 'deploy', arguments: {} }] } : { text: 'ok' };
  });
  return { approval, agent: createAgent({ provider, model: 'm', tools: [fakeTool('deploy', 'deployed')], approval }) };
}

/** A door that answers by the request's conversation and records what it was asked. */
function doorBy(answer: (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>) {
  const asked: ApprovalRequest[] = [];
  return { asked, door: { name: 'ops', ask: (request: ApprovalRequest) => (asked.push(request), answer(request)) } satisfies ApprovalFrontDoor };
}

const turn = async (agent: ReturnType<typeof createAgent>, input: Partial<TurnInput> = {}) => {
  const events = await lastValueFrom(agent.run({ message: 'deploy', ...input }).pipe(toArray()));
  return events.filter((e) => e.type === 'tool-result').map((e) => (e.type === 'tool-result' ? e.outcome : ''));
};

describe("an 'always' counts only in the conversation it was given in", () => {
  it('always in A: later turns of A run without a prompt; B and a turn without a conversation id are asked', async () => {
    const { asked, door } = doorBy((r) => (r.conversationId === 'A' ? 'always' : 'no'));
    const { agent, approval } = deployAgent(door);
    expect(await turn(agent, { conversationId: 'A' })).toEqual(['executed']);
    expect(await turn(agent, { conversationId: 'A' })).toEqual(['executed']);
    expect(await turn(agent, { conversationId: 'B' })).toEqual(['denied']);
    expect(await turn(agent)).toEqual(['denied']);
    expect(asked.map((r) => r.conversationId ?? 'none')).toEqual(['A', 'B', 'none']);
    expect(approval.allowListFor('A').has('deploy')).toBe(true);
    expect(approval.allowListFor('B').has('deploy')).toBe(false);
    expect(approval.sessionAllowList.has('deploy')).toBe(false);
  });

  it('two conversations interleaved keep separate lists', async () => {
    const answers: Record<string, ApprovalAnswer[]> = { A: ['always'], B: ['yes', 'yes', 'always'] };
    const { asked, door } = doorBy((r) => answers[r.conversationId!].shift() ?? 'no');
    const { agent, approval } = deployAgent(door);
    for (const id of ['A', 'B', 'A', 'B', 'A', 'B', 'B', 'A']) expect(await turn(agent, { conversationId: id })).toEqual(['executed']);
    expect(asked.map((r) => r.conversationId)).toEqual(['A', 'B', 'B', 'B']);
    expect(approval.verdict('deploy', { conversationId: 'A' })).toBe('approve');
    expect(approval.verdict('deploy', { conversationId: 'C' })).toBe('prompt');
  });

  it('a turn without a conversation id is its own scope: always lasts for the rest of that turn only', async () => {
    const { asked, door } = doorBy(() => 'always');
    const { agent, approval } = deployAgent(door, 3);
    expect(await turn(agent)).toEqual(['executed', 'executed', 'executed']);
    expect(asked).toHaveLength(1);
    expect(await turn(agent)).toEqual(['executed', 'executed', 'executed']);
    expect(asked).toHaveLength(2);
    expect(asked[0].turnId).not.toBe(asked[1].turnId);
    expect(approval.allowListFor({ turnId: asked[0].turnId }).has('deploy')).toBe(true);
    expect(approval.allowListFor({}).size).toBe(0);
  });

  it('parallel turns of two conversations: an always given in A while B waits does not answer B', async () => {
    let releaseB!: (answer: ApprovalAnswer) => void;
    const bAnswer = new Promise<ApprovalAnswer>((resolve) => (releaseB = resolve));
    const { asked, door } = doorBy((r) => (r.conversationId === 'A' ? 'always' : bAnswer));
    const { agent } = deployAgent(door, 2);
    const b = turn(agent, { conversationId: 'B' });
    const a = await turn(agent, { conversationId: 'A' });
    releaseB('yes');
    expect(a).toEqual(['executed', 'executed']);
    expect(await b).toEqual(['executed', 'executed']);
    expect(asked.map((r) => r.conversationId)).toEqual(['B', 'A', 'B']);
  });

  it('parallel turns of the same conversation share its list', async () => {
    const { asked, door } = doorBy(() => 'always');
    const { agent } = deployAgent(door, 2);
    await turn(agent, { conversationId: 'A' });
    const both = await Promise.all([turn(agent, { conversationId: 'A' }), turn(agent, { conversationId: 'A' })]);
    expect(both).toEqual([['executed', 'executed'], ['executed', 'executed']]);
    expect(asked).toHaveLength(1);
  });
});

describe('the allow-lists are bounded and can be dropped', () => {
  const request = (conversationId: string): ApprovalRequest => ({ requestId: 'r', toolName: 'deploy', arguments: {}, argumentsSummary: '', channel: 'cli', conversationId });

  it('beyond maxConversations the least recently used conversation goes first, and its tools prompt again', async () => {
    const m = new ApprovalManager({}, { name: 'ops', ask: () => 'always' }, { maxConversations: 2 });
    for (const id of ['c1', 'c2']) await lastValueFrom(m.decide(request(id)));
    expect(m.verdict('deploy', { conversationId: 'c1' })).toBe('approve'); // c1 is now the newest
    await lastValueFrom(m.decide(request('c3')));
    expect(['c1', 'c2', 'c3'].map((id) => m.verdict('deploy', { conversationId: id }))).toEqual(['approve', 'prompt', 'approve']);
  });

  it('1,000 conversations by default; forgetConversation drops one at once', async () => {
    const m = new ApprovalManager({}, { name: 'ops', ask: () => 'always' });
    for (let i = 0; i <= 1000; i++) await lastValueFrom(m.decide(request(`c${i}`)));
    expect(m.allowListFor('c0').size).toBe(0);
    expect(m.allowListFor('c1').has('deploy')).toBe(true);
    expect(m.forgetConversation('c1')).toBe(true);
    expect(m.needsPrompt('deploy', { conversationId: 'c1' })).toBe(true);
  });
});

describe('the same id as a conversation and as a turn are two scopes', () => {
  it('an always for conversation x is not one for turn x, whichever is asked first or in turn', async () => {
    const m = new ApprovalManager({}, { name: 'ops', ask: () => 'always' });
    await lastValueFrom(m.decide({ requestId: 'r', toolName: 'deploy', arguments: {}, argumentsSummary: '', channel: 'cli', conversationId: 'x', turnId: 't1' }));
    const seen = [{ turnId: 'x' }, { conversationId: 'x' }, { turnId: 'x' }, { conversationId: 'x', turnId: 'x' }, { turnId: 'y' }, { conversationId: 'x' }].map(
      (scope) => m.verdict('deploy', scope),
    );
    expect(seen).toEqual(['prompt', 'approve', 'prompt', 'approve', 'prompt', 'approve']);
    expect(m.allowListFor({ turnId: 'x' }).size).toBe(0);
    expect(m.allowListFor('x').has('deploy')).toBe(true);
    expect(m.forgetConversation({ turnId: 'x' })).toBe(false); // no list of turn x to drop
    expect(m.forgetConversation('x')).toBe(true);
    expect(m.verdict('deploy', { conversationId: 'x' })).toBe('prompt');
  });
});
