import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, type RiskProfile, type ToolRisk } from '../../src/index.js';
import { riskProfileFilter } from '../../src/registry/risk-profile.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';

const tool = (name: string, risk?: unknown) => fakeTool(name, 'ran', risk === undefined ? {} : { risk: risk as ToolRisk });
const admitted = (profile: RiskProfile, tools = SHAPES) => tools.filter(riskProfileFilter(profile)).map((t) => t.name);

/** One tool per way of declaring (or not declaring) a risk. */
const SHAPES = [
  tool('reader', 'read'),
  tool('sender', 'egress'),
  tool('writer', 'write'),
  tool('runner', 'exec'),
  tool('silent'),
  tool('legacy', 'network'),
  tool('typo', 'reed'),
];

describe("risks admits only tools whose risk is listed; no declared risk counts as 'write' (fail closed)", () => {
  it.each([
    [['read'], ['reader']],
    [['read', 'egress'], ['reader', 'sender', 'legacy']],
    [['write'], ['writer', 'silent', 'typo']],
    [['exec'], ['runner']],
    [[], []],
    [['read', 'egress', 'write', 'exec'], ['reader', 'sender', 'writer', 'runner', 'silent', 'legacy', 'typo']],
  ])('risks %j admits %j', (risks, names) => {
    expect(admitted({ risks: risks as ToolRisk[] })).toEqual(names);
  });

  it("the legacy 'network' in a profile stands for 'egress'", () => {
    expect(admitted({ risks: ['network' as ToolRisk] })).toEqual(['sender', 'legacy']);
  });

  it('a profile without risks admits every risk', () => {
    expect(admitted({})).toEqual(SHAPES.map((t) => t.name));
    expect(admitted({ excluded: ['typo'] })).toEqual(SHAPES.slice(0, -1).map((t) => t.name));
  });

  it('an unknown level in the profile is a ConfigurationError (not a filter that silently admits nothing)', () => {
    expect(() => riskProfileFilter({ risks: ['reed' as ToolRisk] })).toThrow(ConfigurationError);
    expect(() => riskProfileFilter({ risks: 'read' as never })).toThrow(ConfigurationError);
    expect(() => createAgent({ provider: scriptedModel([]), model: 'm', tools: SHAPES, riskProfile: { risks: [undefined as never] } })).toThrow(
      ConfigurationError,
    );
  });

  it('a tool the profile leaves out ends excluded when called, and never runs', async () => {
    const silent = tool('silent');
    const reader = tool('reader', 'read');
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'silent', arguments: {} }, { id: 'b', name: 'reader', arguments: {} }] },
      { text: 'ok' },
    ]);
    const agent = createAgent({ provider: model, model: 'm', tools: [silent, reader], riskProfile: { risks: ['read'] } });
    const done = await agent.complete({ message: 'go' });
    expect(model.requests[0].tools?.map((t) => t.name)).toEqual(['reader']);
    expect(done.history.filter((m) => m.role === 'tool').length).toBe(2);
    expect(silent.calls).toEqual([]);
    expect(reader.calls).toHaveLength(1);
  });
});
