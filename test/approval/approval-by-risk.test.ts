import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, nonInteractiveApproval, POLICY_DENIAL_TEXT, riskOf, type ToolRisk } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { outcomes, runTurn, scriptedDoor } from '../prep/harness.js';

const manager = (policy: ConstructorParameters<typeof ApprovalManager>[0] = {}) => new ApprovalManager(policy, nonInteractiveApproval());
const tool = (name: string, risk?: unknown) => fakeTool(name, 'ran', risk === undefined ? {} : { risk: risk as ToolRisk });

describe("risk levels: 'read' < 'egress' < 'write' < 'exec'; no declared risk counts as 'write'", () => {
  it.each([
    ['read', 'read'],
    ['egress', 'egress'],
    ['write', 'write'],
    ['exec', 'exec'],
    [undefined, 'write'],
    ['network', 'egress'],
    ['reed', 'write'],
    ['READ', 'write'],
    [7, 'write'],
  ])('a tool declaring %j counts as %j', (declared, counted) => {
    expect(riskOf({ risk: declared })).toBe(counted);
  });
});

describe("supervised: a 'read' tool is approved by default; 'egress', 'write', 'exec' and undeclared risks prompt", () => {
  it.each([
    ['read', 'approve'],
    ['egress', 'prompt'],
    ['write', 'prompt'],
    ['exec', 'prompt'],
    [undefined, 'prompt'],
    ['network', 'prompt'],
    ['misspelled', 'prompt'],
  ])('a custom tool with risk %j → %s', (risk, verdict) => {
    const m = manager();
    expect(m.verdict(tool('lookup', risk))).toBe(verdict);
    expect(m.needsPrompt(tool('lookup', risk))).toBe(verdict === 'prompt');
  });

  it('any object with a name and a risk is enough: policy does not need a full Tool', () => {
    expect(manager().verdict({ name: 'lookup', risk: 'read' })).toBe('approve');
    expect(manager().verdict({ name: 'lookup' })).toBe('prompt');
  });

  it('a bare name is a tool without a declared risk: the named lists still decide it as before', () => {
    const m = manager({ autoApprove: ['deploy'] });
    expect(['file_read', 'tool_search', 'deploy', 'lookup', 'web_fetch'].map((name) => m.verdict(name))).toEqual([
      'approve',
      'approve',
      'approve',
      'prompt',
      'prompt',
    ]);
  });

  it('a default name vouches for a tool that declares no risk, never against a declared higher one', () => {
    const m = manager();
    expect(m.verdict(tool('file_read'))).toBe('approve');
    expect(m.verdict(tool('file_read', 'read'))).toBe('approve');
    expect(m.verdict(tool('calculator', 'egress'))).toBe('prompt');
    expect(m.verdict(tool('memory_recall', 'write'))).toBe('prompt');
    expect(m.verdict(tool('file_read', 'exec'))).toBe('prompt');
  });

  it('an explicit autoApprove name approves whatever the risk; the read default stays', () => {
    const m = manager({ autoApprove: ['deploy'] });
    expect(m.verdict(tool('deploy', 'exec'))).toBe('approve');
    expect(m.verdict(tool('lookup', 'read'))).toBe('approve');
    expect(m.verdict(tool('shell', 'exec'))).toBe('prompt');
  });

  it('alwaysAsk wins over read risk (by name, case-insensitively, or *)', () => {
    expect(manager({ alwaysAsk: ['lookup'] }).verdict(tool('lookup', 'read'))).toBe('prompt');
    expect(manager({ alwaysAsk: [' LOOKUP '] }).verdict(tool('lookup', 'read'))).toBe('prompt');
    expect(manager({ alwaysAsk: ['*'] }).verdict(tool('tool_search', 'read'))).toBe('prompt');
  });

  it('full and readonly ignore the risk', () => {
    for (const risk of ['read', 'egress', 'write', 'exec', undefined]) {
      expect(manager({ level: 'full' }).verdict(tool('t', risk))).toBe('approve');
      expect(manager({ level: 'readonly' }).verdict(tool('t', risk))).toBe('allow');
    }
  });

  it('always puts an egress tool on the session allow-list; alwaysAsk still wins', async () => {
    const fetcher = tool('web_fetch', 'egress');
    const request = { requestId: 'r', toolName: 'web_fetch', arguments: {}, argumentsSummary: '', channel: 'cli' };
    const m = new ApprovalManager({}, scriptedDoor(['always']));
    expect(m.verdict(fetcher)).toBe('prompt');
    await lastValueFrom(m.decide(request));
    expect(m.verdict(fetcher)).toBe('approve');
    const asking = new ApprovalManager({ alwaysAsk: ['web_fetch'] }, scriptedDoor(['always']));
    await lastValueFrom(asking.decide(request));
    expect(asking.verdict(fetcher)).toBe('prompt');
  });
});

describe('in a turn without a terminal, read tools run and the others are denied by policy (the README snippet)', () => {
  it('a batch of every risk: only the read tool and the default names run', async () => {
    const tools = [
      tool('lookup', 'read'),
      tool('web_fetch', 'egress'),
      tool('save', 'write'),
      tool('shell', 'exec'),
      tool('plain'),
      tool('file_read'),
    ];
    const calls = tools.map((t, i) => ({ id: `c${i}`, name: t.name, arguments: {} }));
    const model = scriptedModel([{ toolCalls: calls }, { text: 'done' }]);
    const operator = scriptedDoor([]);
    const run = await runTurn(createAgent({ provider: model, model: 'm', tools, approval: new ApprovalManager({}, operator) }));
    expect(run.done.text).toBe('done');
    expect(outcomes(run.events).map(([name, outcome]) => [name, outcome])).toEqual([
      ['lookup', 'executed'],
      ['web_fetch', 'denied'],
      ['save', 'denied'],
      ['shell', 'denied'],
      ['plain', 'denied'],
      ['file_read', 'executed'],
    ]);
    expect(operator.asked.map((r) => r.toolName)).toEqual(['web_fetch', 'save', 'shell', 'plain']);
    expect(outcomes(run.events)[1][3]).toBe(POLICY_DENIAL_TEXT);
  });

  it('read tools are never prompted: no approval event at all', async () => {
    const tools = [tool('a', 'read'), tool('b', 'read')];
    const model = scriptedModel([{ toolCalls: tools.map((t, i) => ({ id: `c${i}`, name: t.name, arguments: {} })) }, { text: 'done' }]);
    const run = await runTurn(createAgent({ provider: model, model: 'm', tools, approval: manager() }));
    expect(run.events.filter((e) => e.type === 'approval-request')).toEqual([]);
    expect(outcomes(run.events).map(([, outcome]) => outcome)).toEqual(['executed', 'executed']);
  });
});
