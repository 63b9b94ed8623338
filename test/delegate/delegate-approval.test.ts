import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ApprovalManager,
  createAgent,
  delegateTool,
  type ApprovalAnswer,
  type ApprovalFrontDoor,
  type ApprovalRequest,
  type TurnEvent,
} from '../../src/index.js';
import { eventCode, fakeTool, scriptedModel } from '../../src/testing/index.js';

const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });

/** A front door that answers from a list and records what it was asked. */
function door(name: string, answers: ApprovalAnswer[]) {
  const asked: ApprovalRequest[] = [];
  return { asked, door: { name, ask: (request: ApprovalRequest) => (asked.push(request), answers.shift() ?? 'no') } satisfies ApprovalFrontDoor };
}

/** Every turn of the parent delegates once; every turn of the child deploys `deploys` times, one per iteration. */
function setup(options: { parentDoor?: ApprovalFrontDoor; childDoor?: ApprovalFrontDoor; deploys?: number }) {
  const deploy = fakeTool('deploy', 'deployed'); // no declared risk: 'write', it prompts
  const deploys = options.deploys ?? 1;
  const childModel = scriptedModel((req) => {
    const done = req.messages.filter((m) => m.role === 'tool').length;
    // other arguments each time: repeating a denied call would abort the turn (prompt-loop guard)
    return done < deploys ? { toolCalls: [call(`c${done}`, 'deploy', { env: 'prod', step: done })] } : { text: 'deployed it' };
  });
  const childApproval = options.childDoor ? new ApprovalManager({}, options.childDoor) : undefined;
  const child = createAgent({ name: 'ops', provider: childModel, model: 'm', tools: [deploy], approval: childApproval });
  const parentModel = scriptedModel([{ toolCalls: [call('p1', 'ask_ops', { task: 'deploy' })] }, { text: 'done' }]);
  const approval = options.parentDoor ? new ApprovalManager({}, options.parentDoor) : undefined;
  const ask = delegateTool({ agent: child, name: 'ask_ops', description: 'Asks the ops agent.', risk: 'read' });
  const parent = createAgent({ name: 'lead', provider: parentModel, model: 'm', tools: [ask], approval });
  const run = (conversationId?: string): Promise<TurnEvent[]> =>
    lastValueFrom(parent.run({ message: 'ship it', ingress: { channel: 'web' }, ...(conversationId ? { conversationId } : {}) }).pipe(toArray()));
  return { deploy, approval, run };
}

const childOutcomes = (all: TurnEvent[]) => all.flatMap((e) => (e.type === 'delegate' && e.event.type === 'tool-result' ? [e.event.outcome] : []));

describe("the child's approval prompts go to the parent's front door", () => {
  it("the parent's door is asked, as the parent's conversation, and the child's own is not", async () => {
    const parentDoor = door('parent-door', ['yes']);
    const childDoor = door('child-door', ['no']);
    const { run, deploy } = setup({ parentDoor: parentDoor.door, childDoor: childDoor.door });
    const all = await run('c1');
    expect(parentDoor.asked).toHaveLength(1);
    expect(parentDoor.asked[0]).toMatchObject({ toolName: 'deploy', arguments: { env: 'prod', step: 0 }, conversationId: 'c1', channel: 'web' });
    expect(childDoor.asked).toHaveLength(0);
    expect(deploy.calls).toHaveLength(1);
    expect(all.map(eventCode).filter((c) => c.startsWith('ops>'))).toEqual([
      'ops> iteration 1',
      'ops> ask deploy',
      'ops> decided deploy yes',
      'ops> call deploy',
      'ops> deploy executed',
      'ops> iteration 2',
      'ops> text deployed it',
    ]);
    const decision = all.find((e) => e.type === 'delegate' && e.event.type === 'approval-decision');
    expect(decision).toMatchObject({ parentCallId: 'p1', event: { decidedBy: 'parent-door', byOperator: true } });
  });

  it("an 'always' counts in the parent's conversation: later calls there, the child's and its next turns', are not asked", async () => {
    const parentDoor = door('parent-door', ['always', 'no', 'no']);
    const { run, approval } = setup({ parentDoor: parentDoor.door, deploys: 2 });
    expect(childOutcomes(await run('c1'))).toEqual(['executed', 'executed']);
    expect(childOutcomes(await run('c1'))).toEqual(['executed', 'executed']);
    expect(parentDoor.asked).toHaveLength(1);
    expect(approval!.allowListFor('c1').has('deploy')).toBe(true);
    // another conversation is asked again
    expect(childOutcomes(await run('c2'))).toEqual(['denied', 'denied']);
    expect(parentDoor.asked.map((r) => r.conversationId)).toEqual(['c1', 'c2', 'c2']);
  });

  it("without a conversation, an 'always' lasts for the parent's turn", async () => {
    const parentDoor = door('parent-door', ['always', 'no']);
    const { run, approval } = setup({ parentDoor: parentDoor.door, deploys: 2 });
    expect(childOutcomes(await run())).toEqual(['executed', 'executed']);
    expect(parentDoor.asked).toHaveLength(1);
    expect(approval!.allowListFor({ turnId: parentDoor.asked[0].turnId }).has('deploy')).toBe(true);
    // the next turn of the parent is another scope: asked again
    expect(childOutcomes(await run())).toEqual(['denied', 'denied']);
    expect(parentDoor.asked[1].turnId).not.toBe(parentDoor.asked[0].turnId);
  });

  it("the audit log of the parent records the child's decisions", async () => {
    const parentDoor = door('parent-door', ['no']);
    const { run, approval, deploy } = setup({ parentDoor: parentDoor.door });
    expect(childOutcomes(await run('c1'))).toEqual(['denied']);
    expect(deploy.calls).toHaveLength(0);
    expect(approval!.auditLog.map((e) => [e.toolName, e.decision, e.decidedBy])).toEqual([['deploy', 'no', 'parent-door']]);
  });

  it('a parent without an approval port leaves the child its own', async () => {
    const childDoor = door('child-door', ['no']);
    const { run, deploy } = setup({ childDoor: childDoor.door });
    expect(childOutcomes(await run('c1'))).toEqual(['denied']);
    expect(childDoor.asked).toHaveLength(1);
    expect(deploy.calls).toHaveLength(0);
  });
});
