import { delay, lastValueFrom, tap, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ApprovalManager,
  createAgent,
  delegateTool,
  pauseForApproval,
  SnapshotMismatchError,
  type ResumeDecision,
  type TurnEvent,
  type TurnEventOf,
} from '../../src/index.js';
import { durableAgent, memoryTurnStore } from '../../src/durable/index.js';
import { eventCode, fakeTool, scriptedModel, stepEvents, type ScriptedStep } from '../../src/testing/index.js';

type Done = TurnEventOf<'done'>;
const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });
const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const doneOf = (all: TurnEvent[]) => all.at(-1) as Done;
const KEY = 'a snapshot key shared by every process of the deployment';

/**
 * A parent whose approval parks (`pauseForApproval`) and whose first response calls `calls` (its
 * own `calc`, and `ask_ops`, which delegates to a child that deploys, then answers). Built anew
 * for each process, as a deployment would; the tools record their calls across builds.
 */
function world(calls: string[], knobs: { parallelTools?: boolean } = {}) {
  // in parallel, the children answer later: both calls start before either parks
  const later = (step: ScriptedStep) => (knobs.parallelTools ? stepEvents(step).pipe(delay(1)) : step);
  const deploy = fakeTool('deploy', 'deployed'); // 'write': it prompts
  const calc = fakeTool('calc', '42', { risk: 'read' });
  const build = () => {
    const childModel = scriptedModel((req) =>
      later(
        req.messages.some((m) => m.role === 'tool')
          ? { text: 'ops done', usage: { inputTokens: 20, outputTokens: 2 } }
          : { toolCalls: [call('c1', 'deploy', { env: 'prod' })], usage: { inputTokens: 10, outputTokens: 1 } },
      ),
    );
    const child = createAgent({ name: 'ops', provider: childModel, model: 'm', tools: [deploy], snapshotKey: KEY });
    const ask = delegateTool({ agent: child, name: 'ask_ops', description: 'Asks the ops agent.', risk: 'read' });
    // by what the request holds, not by a step count: a resumed turn in a fresh process goes on where it was
    const parentModel = scriptedModel((req) =>
      req.messages.some((m) => m.role === 'tool')
        ? { text: 'all done', usage: { inputTokens: 200, outputTokens: 6 } }
        : { toolCalls: calls.map((name, i) => call(`p${i}`, name, name === 'ask_ops' ? { task: `deploy ${i}` } : { n: i })), usage: { inputTokens: 100, outputTokens: 5 } },
    );
    const approval = new ApprovalManager({}, pauseForApproval());
    return { approval, parent: createAgent({ name: 'lead', provider: parentModel, model: 'm', tools: [calc, ask], approval, snapshotKey: KEY, knobs }) };
  };
  return { deploy, calc, build };
}

const decide = (done: Done, decision: ResumeDecision) => ({ decisions: Object.fromEntries(done.pending!.map((r) => [r.requestId, decision])) });

describe('a delegated turn parks and resumes with its parent', () => {
  it("the child's prompt parks the parent: pending is the child's request, the snapshot holds the child's", async () => {
    const { build, deploy } = world(['ask_ops']);
    const first = doneOf(await collect(build().parent.run({ message: 'ship it', conversationId: 'c1' })));
    expect(first.reason).toBe('paused');
    expect(first.pending!.map((r) => [r.toolName, r.arguments])).toEqual([['deploy', { env: 'prod' }]]);
    const slot = first.snapshot!.batch!.slots[0];
    expect(slot).toMatchObject({ state: 'delegated', name: 'ask_ops', child: { agent: 'ops', batch: { slots: [{ state: 'awaiting-approval' }] } } });
    expect(first.usage).toEqual({ inputTokens: 110, outputTokens: 6 }); // the parent's request and the child's so far
    expect(deploy.calls).toHaveLength(0);
    expect(JSON.parse(JSON.stringify(first.snapshot))).toEqual(first.snapshot);
  });

  it("resuming the parent with the decision resumes both, in a fresh process: the child's call runs, then the parent goes on", async () => {
    const { build, deploy } = world(['ask_ops']);
    const first = doneOf(await collect(build().parent.run({ message: 'ship it', conversationId: 'c1' })));
    const stored = JSON.parse(JSON.stringify(first.snapshot));
    const rest = await collect(build().parent.resume(stored, decide(first, 'yes')));
    expect(rest.map(eventCode)).toEqual([
      'call ask_ops',
      'ops> decided deploy yes',
      'ops> call deploy',
      'ops> deploy executed',
      'ops> iteration 2',
      'ops> text ops done',
      'ops> usage',
      'ask_ops executed',
      'iteration 2',
      'text all done',
      'usage',
      'done final',
    ]);
    expect(deploy.calls).toHaveLength(1);
    const done = doneOf(rest);
    expect(done.usage).toEqual({ inputTokens: 100 + 10 + 20 + 200, outputTokens: 5 + 1 + 2 + 6 });
    expect(done.history.filter((m) => m.role === 'tool')).toEqual([{ role: 'tool', tool_call_id: 'p0', content: 'ops done' }]);
  });

  it("the parent's calls keep their order: one finished before the park keeps its result and never runs again, one after it runs on resume", async () => {
    const { build, calc } = world(['calc', 'ask_ops', 'calc']);
    const first = doneOf(await collect(build().parent.run({ message: 'ship it' })));
    expect(first.snapshot!.batch!.slots.map((s) => s.state)).toEqual(['done', 'delegated', 'ready']);
    expect(calc.calls).toHaveLength(1);
    const done = doneOf(await collect(build().parent.resume(first.snapshot!, decide(first, 'no'))));
    expect(calc.calls).toHaveLength(2);
    expect(done.history.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? [m.tool_call_id, m.content] : []))).toEqual([
      ['p0', '42'],
      ['p1', 'ops done'],
      ['p2', '42'],
    ]);
  });

  it('two calls run in parallel both park: pending holds both requests, and each child resumes with its own decision', async () => {
    const { build, deploy } = world(['ask_ops', 'ask_ops'], { parallelTools: true });
    const first = doneOf(await collect(build().parent.run({ message: 'ship it' })));
    expect(first.snapshot!.batch!.slots.map((s) => s.state)).toEqual(['delegated', 'delegated']);
    expect(first.pending).toHaveLength(2);
    const [a, b] = first.pending!.map((r) => r.requestId);
    const done = doneOf(await collect(build().parent.resume(first.snapshot!, { decisions: { [a]: 'yes', [b]: 'no' } })));
    expect(deploy.calls).toHaveLength(1);
    expect(done.reason).toBe('final');
  });

  it('a turn cancelled while a call is parked and another still runs does not park: it ends cancelled, both interrupted', async () => {
    const deploy = fakeTool('deploy', 'deployed');
    const slow = fakeTool('slow', (_args, ctx) => new Promise<string>((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))), { risk: 'read' });
    const child = createAgent({ name: 'ops', provider: scriptedModel([{ toolCalls: [call('c1', 'deploy')] }]), model: 'm', tools: [deploy] });
    const parent = createAgent({
      provider: scriptedModel([{ toolCalls: [call('p0', 'slow'), call('p1', 'ask_ops', { task: 'deploy' })] }]),
      model: 'm',
      tools: [delegateTool({ agent: child, name: 'ask_ops', description: 'd', risk: 'read' }), slow],
      approval: new ApprovalManager({}, pauseForApproval()),
      knobs: { parallelTools: true },
    });
    const controller = new AbortController();
    const all = await collect(parent.run({ message: 'go', signal: controller.signal }).pipe(tap((e) => e.type === 'delegate' && e.event.type === 'approval-request' && queueMicrotask(() => controller.abort()))));
    const done = doneOf(all);
    expect(done.reason).toBe('cancelled');
    const interrupted = '[interrupted before this tool produced a result]';
    expect(done.history.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'p0', content: interrupted, isError: true },
      { role: 'tool', tool_call_id: 'p1', content: interrupted, isError: true },
    ]);
    expect(all.filter((e) => e.type === 'tool-result').map((e) => (e.type === 'tool-result' ? [e.id, e.outcome] : []))).toEqual([
      ['p0', 'interrupted'],
      ['p1', 'interrupted'],
    ]);
    expect(deploy.calls).toHaveLength(0);
  });

  it("an 'always' given on resume counts in the parent's conversation", async () => {
    const { build } = world(['ask_ops']);
    const first = doneOf(await collect(build().parent.run({ message: 'ship it', conversationId: 'c1' })));
    const { parent, approval } = build();
    await collect(parent.resume(first.snapshot!, decide(first, 'always')));
    expect(approval.allowListFor('c1').has('deploy')).toBe(true);
  });

  it('a resume fails closed: a decision missing or for no pending request, a replayed snapshot', async () => {
    const { build, deploy } = world(['ask_ops']);
    const first = doneOf(await collect(build().parent.run({ message: 'ship it' })));
    const { parent } = build();
    await expect(collect(parent.resume(first.snapshot!, { decisions: {} }))).rejects.toThrow(/No decision for the pending approval/);
    await expect(collect(parent.resume(first.snapshot!, { decisions: { nope: 'yes' } }))).rejects.toBeInstanceOf(SnapshotMismatchError);
    await collect(parent.resume(first.snapshot!, decide(first, 'yes')));
    await expect(collect(parent.resume(first.snapshot!, decide(first, 'yes')))).rejects.toThrow(/resumed already|replay/i);
    expect(deploy.calls).toHaveLength(1);
  });

  it('a changed child snapshot is refused by the seal of the parent', async () => {
    const { build, deploy } = world(['ask_ops']);
    const first = doneOf(await collect(build().parent.run({ message: 'ship it' })));
    const forged = JSON.parse(JSON.stringify(first.snapshot));
    forged.batch.slots[0].child.batch.slots[0].args.env = 'staging';
    await expect(collect(build().parent.resume(forged, decide(first, 'yes')))).rejects.toBeInstanceOf(SnapshotMismatchError);
    expect(deploy.calls).toHaveLength(0);
  });
});

describe('a durable parent with a parked child resumes both', () => {
  it('parks in the store with the child request pending; decided and continued elsewhere, it reaches the end', async () => {
    const store = memoryTurnStore();
    const { build, deploy } = world(['ask_ops']);
    const first = doneOf(await collect(durableAgent(build().parent, { store }).run({ message: 'ship it', conversationId: 'c1' })));
    expect(first.reason).toBe('paused');
    const turnId = first.snapshot!.turnId;
    const parked = await store.getTurn(turnId);
    expect(parked).toMatchObject({ status: 'parked' });
    expect(parked!.pending.map((r) => r.toolName)).toEqual(['deploy']);
    const other = durableAgent(build().parent, { store });
    expect(await other.decide(turnId, parked!.pending[0].requestId, 'always', 'alice')).toMatchObject({ status: 'accepted', ready: true });
    const done = doneOf(await collect(other.continue(turnId)));
    expect(done).toMatchObject({ reason: 'final', text: 'all done' });
    expect(deploy.calls).toHaveLength(1);
    expect(await store.getTurn(turnId)).toMatchObject({ status: 'done' });
    expect(await collect(other.continue(turnId))).toEqual([]);
    const audit = await store.auditLog({ turnId });
    expect(audit.map((a) => [a.toolName, a.decision, a.decidedBy])).toEqual([['deploy', 'always', 'alice']]);
    expect(await store.allowList('c1')).toContain('deploy');
  });
});

describe('a batch parked at a sub-agent keeps its iteration', () => {
  it("prepareIteration's narrowing is in the parked snapshot, as when a batch parks at its own approval", async () => {
    const { build } = world(['ask_ops']);
    const { parent } = build();
    const done = doneOf(await collect(parent.run({ message: 'ship it', conversationId: 'c1', prepareIteration: () => ({ tools: ['ask_ops'] }) })));
    expect(done.reason).toBe('paused');
    expect(done.snapshot!.batch!.slots[0]).toMatchObject({ state: 'delegated' });
    expect(done.snapshot!.batch!.offered).toEqual(['ask_ops']);
  });
});
