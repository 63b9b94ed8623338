import { isObservable, lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ActivationStore, ApprovalManager, createAgent, nonInteractiveApproval } from '../../src/index.js';
import {
  approvalGate,
  beforeToolCallHooks,
  buildPrepSteps,
  channelDefaults,
  clearApprovedMarker,
  dedupGuard,
  defaultPrepSteps,
  isPrepGate,
  prepGate,
  promptLoopGuard,
  resolveTool,
  restoreApprovedMarker,
  validateArgs,
} from '../../src/operators.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { readableSteps } from '../../src/prep/build-prep-steps.js';
import { runTurn, scriptedDoor } from './harness.js';

const base = { provider: scriptedModel([]), model: 'm', tools: [] };

describe('Preparation runs per call, in slot order, in the order of BEHAVIOUR.md', () => {
  it('the full pipeline: hooks → resolve → channel defaults → clear marker → validate → prompt-loop guard → gate → restore marker → dedup', () => {
    expect(defaultPrepSteps).toEqual([
      beforeToolCallHooks,
      resolveTool,
      channelDefaults,
      clearApprovedMarker,
      validateArgs,
      promptLoopGuard,
      approvalGate,
      restoreApprovedMarker,
      dedupGuard,
    ]);
    const tools = [fakeTool('notify', 'sent', { approvalMarker: true, channelArg: 'channel' })];
    const full = buildPrepSteps({ ...base, tools, hooks: { beforeToolCall: [() => undefined] }, approval: new ApprovalManager() });
    expect(full).toEqual(defaultPrepSteps);
  });

  it('an agent without hooks, approval, dedup, or a tool with an approval marker or a channel argument gets only the steps that can act', () => {
    expect(buildPrepSteps({ ...base, tools: [fakeTool('plain', 'ok')], knobs: { dedupEnabled: false } })).toEqual([resolveTool, validateArgs]);
  });

  it('agents configured alike share one frozen pipeline (an agent is often made per turn); different configurations get their own', () => {
    const a = buildPrepSteps({ ...base, knobs: { dedupEnabled: false } });
    expect(buildPrepSteps({ ...base, knobs: { dedupEnabled: false } })).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    const withApproval = buildPrepSteps({ ...base, approval: new ApprovalManager() });
    expect(withApproval).not.toBe(a);
    expect(withApproval).toContain(approvalGate);
    expect(a).not.toContain(approvalGate);
    expect(createAgent({ ...base }).resolved.prepSteps).toBe(createAgent({ ...base }).resolved.prepSteps);
  });

  it('calls are prepared one at a time in slot order, and a filled call skips the remaining steps', async () => {
    const seen: number[] = [];
    const door = scriptedDoor(['yes', 'yes']);
    const agent = createAgent({
      provider: scriptedModel([
        {
          toolCalls: [
            { name: 'w', arguments: { n: 0 } },
            { name: 'w', arguments: { n: 1 } },
            { name: 'nope', arguments: { n: 2 } },
            { name: 'w', arguments: { n: 3 } },
          ],
        },
        { text: 'ok' },
      ]),
      model: 'm',
      tools: [fakeTool('w', 'ok')],
      hooks: { beforeToolCall: [(call) => void seen.push(call.slot)] },
      approval: new ApprovalManager({}, door),
    });
    await runTurn(agent);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(door.asked.map((r) => (r.arguments as { n: number }).n)).toEqual([0, 1, 3]);
  });

  it('the agent builds its pipeline once', () => {
    const agent = createAgent({ ...base, approval: new ApprovalManager({}, nonInteractiveApproval()) });
    expect(agent.resolved.prepSteps).toContain(approvalGate);
    expect(Object.isFrozen(agent.resolved.prepSteps)).toBe(true);
  });
});

describe('the marker and channel steps: kept while a turn of the agent may call a tool they act on', () => {
  const marked = fakeTool('shell', 'ran', { approvalMarker: true });
  const notify = fakeTool('notify', 'sent', { channelArg: 'channel' });
  const plain = fakeTool('plain', 'ok');
  const every = [resolveTool, channelDefaults, clearApprovedMarker, validateArgs, restoreApprovedMarker];
  const off = { knobs: { dedupEnabled: false } };

  it('a tool with an approval marker, among the tools, in a bundle or deferred, keeps both marker steps', () => {
    for (const where of [{ tools: [plain, marked] }, { tools: [plain], bundles: [{ name: 'ops', tools: [marked] }] }, { tools: [plain], deferredTools: [marked] }]) {
      expect(buildPrepSteps({ ...where, ...off })).toEqual([resolveTool, clearApprovedMarker, validateArgs, restoreApprovedMarker]);
    }
  });

  it('a tool with a channel argument, among the tools, in a bundle or deferred, keeps the channel step', () => {
    for (const where of [{ tools: [notify] }, { tools: [], bundles: [{ name: 'chat', tools: [notify] }] }, { tools: [], deferredTools: [notify] }]) {
      expect(buildPrepSteps({ ...where, ...off })).toEqual([resolveTool, channelDefaults, validateArgs]);
    }
    expect(buildPrepSteps({ tools: [notify, marked], ...off })).toEqual(every);
  });

  it('tools not given, or activations given (another agent may have activated any tool), keep every step', () => {
    expect(buildPrepSteps(off)).toEqual(every);
    expect(buildPrepSteps({ tools: [plain], activated: new ActivationStore(), ...off })).toEqual(every);
    expect(createAgent({ ...base, tools: [plain], activated: new ActivationStore(), ...off }).resolved.prepSteps).toEqual(every);
    expect(createAgent({ ...base, tools: [plain], ...off }).resolved.prepSteps).toEqual([resolveTool, validateArgs]);
  });
});

describe('each step has one return type: a call at once, or an Observable from a gate', () => {
  it('only the hooks and the approval prompt may wait; the other steps decide at once', () => {
    expect(defaultPrepSteps.filter(isPrepGate)).toEqual([beforeToolCallHooks, approvalGate]);
  });

  it('prepGate makes a gate that returns an Observable of what its function answers (a promise, an array, …)', async () => {
    const gate = prepGate((call) => Promise.resolve({ ...call, name: 'renamed' }));
    expect(isPrepGate(gate)).toBe(true);
    expect(isPrepGate(resolveTool)).toBe(false);
    const call = { call: { slot: 0, id: 'c0', name: 'a', args: {}, rawArguments: '{}' }, slot: 0, id: 'c0', name: 'a', args: {} };
    const out = gate(call, {} as never);
    expect(isObservable(out)).toBe(true);
    expect((await lastValueFrom(out)) as { name: string }).toMatchObject({ name: 'renamed' });
  });
});

describe('the shared pipelines, and the arrays the loop reads them from', () => {
  it('a pipeline is frozen and shared; the loop reads an unfrozen twin with the same steps', () => {
    const shared = buildPrepSteps({ hooks: { beforeToolCall: [() => undefined] }, approval: {}, knobs: {} });
    expect(buildPrepSteps({ hooks: { beforeToolCall: [() => undefined] }, approval: {}, knobs: {} })).toBe(shared);
    expect(Object.isFrozen(shared)).toBe(true);
    const twin = readableSteps(shared);
    expect(twin).not.toBe(shared);
    expect(Object.isFrozen(twin)).toBe(false);
    expect(twin).toEqual(shared);
    expect(readableSteps(shared)).toBe(twin);
  });

  it('any other array is read as it is', () => {
    const own = [resolveTool, dedupGuard];
    expect(readableSteps(own)).toBe(own);
    expect(readableSteps(defaultPrepSteps)).toBe(defaultPrepSteps);
  });
});
