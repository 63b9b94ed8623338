import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  createAgent,
  DuplicateToolError,
  toolBundle,
  type AgentConfig,
  type ProviderRequest,
  type TurnEventOf,
  type TurnInput,
} from '../../src/index.js';
import { fakeTool, scriptedModel, type ScriptedStep } from '../../src/testing/index.js';

const calc = fakeTool('calc', '42', { risk: 'read' });
const read = fakeTool('file_read', 'contents', { risk: 'read' });
const write = fakeTool('file_write', 'written', { risk: 'write' });
const shell = fakeTool('shell', 'ran', { risk: 'exec' });
const files = toolBundle('files', [read, write]);
const remote = fakeTool('gh__search', 'found', { attribution: { source: 'mcp', server: 'gh', originalName: 'search' } });

const specNames = (req: ProviderRequest) => (req.tools ?? []).map((t) => t.name);

async function turn(config: Partial<AgentConfig>, input: Partial<TurnInput> = {}, steps: ScriptedStep[] = [{ text: 'ok' }]) {
  const model = scriptedModel(steps);
  const agent = createAgent({ provider: model, model: 'm', tools: [], ...config });
  const events = await lastValueFrom(agent.run({ message: 'go', ...input }).pipe(toArray()));
  const results = events.filter((e): e is TurnEventOf<'tool-result'> => e.type === 'tool-result');
  return { specs: specNames(model.requests[0]), results: results.map((r) => [r.name, r.outcome]) };
}

const callAll = (...names: string[]): ScriptedStep[] => [
  { toolCalls: names.map((name, i) => ({ id: `c${i}`, name, arguments: {} })) },
  { text: 'ok' },
];

describe('bundles add named sets of tools to the agent', () => {
  it("a bundle's tools join the agent's tools; the same tool in both is fine", async () => {
    const { specs } = await turn({ tools: [calc, read], bundles: [files] });
    expect(specs).toEqual(['calc', 'file_read', 'file_write']);
  });

  it('two different tools under one name are a DuplicateToolError', () => {
    const other = fakeTool('file_read', 'other');
    expect(() => createAgent({ provider: scriptedModel([]), model: 'm', tools: [other], bundles: [files] })).toThrow(DuplicateToolError);
  });

  it('naming a bundle the agent does not have is a ConfigurationError', () => {
    expect(() =>
      createAgent({ provider: scriptedModel([]), model: 'm', tools: [calc], riskProfile: { allowed: ['bundle:nope'] } }),
    ).toThrow(ConfigurationError);
  });
});

describe('a risk profile decides which tools the agent may have at all', () => {
  it('allowed admits only matching tools, excluded removes matching ones; removed tools end excluded', async () => {
    const { specs, results } = await turn(
      { tools: [calc, shell], bundles: [files], riskProfile: { allowed: ['calc', 'bundle:files'], excluded: ['file_w*'] } },
      {},
      callAll('file_write', 'shell', 'calc'),
    );
    expect(specs).toEqual(['calc', 'file_read']);
    expect(results).toEqual([
      ['file_write', 'excluded'],
      ['shell', 'excluded'],
      ['calc', 'executed'],
    ]);
  });

  it("risks admits only tools whose risk is listed (undeclared risk counts as 'write')", async () => {
    const plain = fakeTool('plain', 'p');
    const { specs } = await turn({ tools: [calc, shell, plain], bundles: [files], riskProfile: { risks: ['read'] } });
    expect(specs).toEqual(['calc', 'file_read']);
  });
});

describe('per-run narrowing can only narrow', () => {
  it('a run sees only the tools its selectors name, and the others end excluded', async () => {
    const { specs, results } = await turn({ tools: [calc], bundles: [files] }, { tools: ['file_*'] }, callAll('calc', 'file_read'));
    expect(specs).toEqual(['file_read', 'file_write']);
    expect(results).toEqual([
      ['calc', 'excluded'],
      ['file_read', 'executed'],
    ]);
  });

  it('naming a tool the agent does not admit does not add it', async () => {
    const { specs, results } = await turn(
      { tools: [calc, shell], riskProfile: { excluded: ['shell'] }, excludedTools: ['calc'] },
      { tools: ['shell', 'calc', 'made_up'] },
      callAll('shell', 'made_up'),
    );
    expect(specs).toEqual([]);
    expect(results).toEqual([
      ['shell', 'excluded'],
      ['made_up', 'unknown'],
    ]);
  });

  it('narrowing applies to deferred tools too: no candidates left, no tool_search', async () => {
    const narrowed = await turn({ tools: [calc], deferredTools: [remote] }, { tools: ['calc'] });
    expect(narrowed.specs).toEqual(['calc']);
    const open = await turn({ tools: [calc], deferredTools: [remote] }, { tools: ['calc', 'gh__*'] });
    expect(open.specs).toEqual(['calc', 'tool_search']);
  });
});

describe('excludedTools removes names from specs and calls, whatever the case or spacing of the call', () => {
  it('an excluded tool is not offered and a call to it ends excluded', async () => {
    const { specs, results } = await turn({ tools: [calc, read], excludedTools: ['calc'] }, {}, callAll(' CALC ', 'file_read'));
    expect(specs).toEqual(['file_read']);
    expect(results).toEqual([
      [' CALC ', 'excluded'],
      ['file_read', 'executed'],
    ]);
  });

  it('excluding tool_search hides the deferred tools entirely', async () => {
    const { specs } = await turn({ tools: [calc], deferredTools: [remote], excludedTools: ['tool_search'] });
    expect(specs).toEqual(['calc']);
  });
});
