import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ActivationStore, ApprovalManager, createAgent, nonInteractiveApproval, type ApprovalPort } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { outcomes, runTurn, scriptedDoor } from './harness.js';

const SENT_FORMS: Record<string, unknown>[] = [
  { approved: true },
  { approved: 'true' },
  { approved: 1 },
  { approved: 'yes' },
  { Approved: true },
  { APPROVED: 'yes' },
  { ' approved ': true },
  { approved: true, Approved: true },
];

async function shellRun(sent: Record<string, unknown>, approval?: ApprovalPort, extra: { parameters?: z.ZodType<Record<string, unknown>> } = {}) {
  const shell = fakeTool('shell', 'ran', { approvalMarker: true, ...extra });
  const model = scriptedModel([{ toolCalls: [{ name: 'shell', arguments: { cmd: 'ls', ...sent } }] }, { text: 'ok' }]);
  const agent = createAgent({ provider: model, model: 'm', tools: [shell], approval });
  const record = await runTurn(agent);
  return { shell, ...record };
}

describe('clear the approved marker: an approvalMarker tool gets approved=false whatever the model sent', () => {
  it.each(SENT_FORMS)('without an approval manager, %j reaches the tool as approved: false and no other spelling', async (sent) => {
    const { shell } = await shellRun(sent);
    expect(shell.calls.map((c) => c.args)).toEqual([{ cmd: 'ls', approved: false }]);
  });

  it('under the readonly level the call runs without a prompt and the marker stays false', async () => {
    const door = scriptedDoor(['yes']);
    const { shell } = await shellRun({ approved: true }, new ApprovalManager({ level: 'readonly' }, door));
    expect(door.asked).toEqual([]);
    expect(shell.calls.map((c) => c.args)).toEqual([{ cmd: 'ls', approved: false }]);
  });

  it('the marker is cleared before argument validation, so a malformed marker cannot make the call invalid or true', async () => {
    const parameters = z.object({ cmd: z.string(), approved: z.boolean().optional() });
    const { shell, events } = await shellRun({ approved: 'yes' }, undefined, { parameters: parameters as never });
    expect(outcomes(events)[0][1]).toBe('executed');
    expect(shell.calls.map((c) => c.args)).toEqual([{ cmd: 'ls', approved: false }]);
  });

  it('a tool without approvalMarker gets its arguments untouched', async () => {
    const plain = fakeTool('plain', 'ran');
    const model = scriptedModel([{ toolCalls: [{ name: 'plain', arguments: { approved: true } }] }, { text: 'ok' }]);
    await runTurn(createAgent({ provider: model, model: 'm', tools: [plain] }));
    expect(plain.calls[0].args).toEqual({ approved: true });
  });
});

describe('restore the marker: args.approved = true only when the decision was an approval', () => {
  it("an operator's yes restores it to true", async () => {
    const { shell } = await shellRun({}, new ApprovalManager({}, scriptedDoor(['yes'])));
    expect(shell.calls.map((c) => c.args)).toEqual([{ cmd: 'ls', approved: true }]);
  });

  it("an operator's always restores it to true", async () => {
    const { shell } = await shellRun({ approved: false }, new ApprovalManager({}, scriptedDoor(['always'])));
    expect(shell.calls.map((c) => c.args)).toEqual([{ cmd: 'ls', approved: true }]);
  });

  it('a policy approval (full level, autoApprove) restores it to true', async () => {
    const full = await shellRun({}, new ApprovalManager({ level: 'full' }, nonInteractiveApproval()));
    expect(full.shell.calls[0].args.approved).toBe(true);
    const auto = await shellRun({}, new ApprovalManager({ autoApprove: ['shell'] }, nonInteractiveApproval()));
    expect(auto.shell.calls[0].args.approved).toBe(true);
  });

  it('a denial or a replacement never executes, so nothing is restored', async () => {
    const denied = await shellRun({ approved: true }, new ApprovalManager({}, scriptedDoor(['no'])));
    expect(denied.shell.calls).toEqual([]);
    const replaced = await shellRun({ approved: true }, new ApprovalManager({}, scriptedDoor([{ replaceWith: 'pretend output' }])));
    expect(replaced.shell.calls).toEqual([]);
  });

  it('a zod schema that strips the marker still hands the tool the runtime-owned value', async () => {
    const parameters = z.object({ cmd: z.string() });
    const { shell } = await shellRun({ approved: true }, new ApprovalManager({}, scriptedDoor(['yes'])), { parameters: parameters as never });
    expect(shell.calls.map((c) => c.args)).toEqual([{ cmd: 'ls', approved: true }]);
  });
});

describe('the marker is cleared for a tool the agent was not built with up front (its pipeline keeps the marker steps)', () => {
  const search = { name: 'tool_search', arguments: { query: 'select:shell' } };
  const sent = { name: 'shell', arguments: { cmd: 'ls', approved: true } };

  it('a deferred approvalMarker tool, activated by tool_search, gets approved: false', async () => {
    const shell = fakeTool('shell', 'ran', { approvalMarker: true });
    const model = scriptedModel([{ toolCalls: [search] }, { toolCalls: [sent] }, { text: 'ok' }]);
    await runTurn(createAgent({ provider: model, model: 'm', tools: [], deferredTools: [shell] }));
    expect(shell.calls.map((c) => c.args)).toEqual([{ cmd: 'ls', approved: false }]);
  });

  it("an agent given a shared ActivationStore calls another agent's activated approvalMarker tool with approved: false", async () => {
    const shell = fakeTool('shell', 'ran', { approvalMarker: true });
    const activated = new ActivationStore();
    const parent = createAgent({ provider: scriptedModel([{ toolCalls: [search] }, { text: 'ok' }]), model: 'm', tools: [], deferredTools: [shell], activated });
    await runTurn(parent, { message: 'go', conversationId: 'c1' });
    const child = createAgent({ provider: scriptedModel([{ toolCalls: [sent] }, { text: 'ok' }]), model: 'm', tools: [fakeTool('plain', 'ok')], activated });
    const { events } = await runTurn(child, { message: 'go', conversationId: 'c1' });
    expect(outcomes(events)).toEqual([['shell', 'executed', true, 'ran']]);
    expect(shell.calls.map((c) => c.args)).toEqual([{ cmd: 'ls', approved: false }]);
  });
});
