import { lastValueFrom, Observable, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, DuplicateToolError, ProviderError, ToolRegistry, type ModelProvider, type ProviderEvent, type ProviderRequest, type ToolSpec } from '../../src/index.js';
import { fakeTool, scriptedModel, stepEvents } from '../../src/testing/index.js';

const tools = Array.from({ length: 50 }, (_, k) => fakeTool(`tool_${k}`, `answer ${k}`, { risk: 'read' }));
const remote = fakeTool('gh__search', 'found', { attribution: { source: 'mcp', server: 'gh', originalName: 'search' } });

describe("a turn that narrows, hides, excludes and activates nothing lists its agent's tools from one shared index", () => {
  it('every turn of every conversation gets the same frozen specs, and calls find their tools through it', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'tool_7', arguments: {} }, { id: 'b', name: 'search', arguments: {} }] },
      { text: 'one' },
      { text: 'two' },
    ]);
    const agent = createAgent({ provider: model, model: 'm', tools: [...tools, remote] });
    const first = await lastValueFrom(agent.run({ message: 'go', conversationId: 'c1' }).pipe(toArray()));
    await agent.complete({ message: 'again', conversationId: 'c2' });
    const [r1, r2, r3] = model.requests;
    expect(r1.tools).toHaveLength(51);
    expect(r2.tools).toBe(r1.tools);
    expect(r3.tools).toBe(r1.tools);
    expect(Object.isFrozen(r1.tools)).toBe(true);
    // the suffix of a `{server}__{name}` tool answers to it, as in a turn of its own
    const results = first.filter((e) => e.type === 'tool-result').map((e) => (e.type === 'tool-result' ? [e.name, e.output] : []));
    expect(results).toEqual([
      ['tool_7', 'answer 7'],
      ['gh__search', 'found'],
    ]);
  });

  it('a turn that narrows or excludes gets its own list, and the shared one stays whole', async () => {
    const model = scriptedModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const agent = createAgent({ provider: model, model: 'm', tools });
    await agent.complete({ message: 'go' });
    await agent.complete({ message: 'go', tools: ['tool_1', 'tool_2'] });
    await agent.complete({ message: 'go' });
    const [whole, narrowed, again] = model.requests.map((r) => (r.tools ?? []).map((t) => t.name));
    expect(narrowed).toEqual(['tool_1', 'tool_2']);
    expect(whole).toHaveLength(50);
    expect(again).toEqual(whole);
    const excluding = scriptedModel([{ text: 'a' }]);
    await createAgent({ provider: excluding, model: 'm', tools, excludedTools: ['TOOL_3'] }).complete({ message: 'go' });
    expect(excluding.requests[0].tools?.map((t) => t.name)).not.toContain('tool_3');
    expect(excluding.requests[0].tools).toHaveLength(49);
  });

  it("a provider that changes a request's tools fails its turn and changes no later turn's", async () => {
    let requests = 0;
    const seen: (readonly ToolSpec[] | undefined)[] = [];
    const meddling: ModelProvider = {
      name: 'meddling',
      nativeTools: true,
      request: (req: ProviderRequest): Observable<ProviderEvent> =>
        new Observable<ProviderEvent>((subscriber) => {
          seen.push(req.tools);
          if (requests++ === 0) (req.tools as ToolSpec[]).push({ name: 'injected', description: '', parameters: {} } as ToolSpec);
          stepEvents({ text: 'ok' }).subscribe(subscriber);
        }),
    };
    const agent = createAgent({ provider: meddling, model: 'm', tools });
    const failed = await agent.complete({ message: 'first' }).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ProviderError);
    expect((failed as ProviderError).cause).toBeInstanceOf(TypeError);
    await expect(agent.complete({ message: 'second' })).resolves.toMatchObject({ text: 'ok' });
    expect(seen[1]?.map((t) => t.name)).toEqual(tools.map((t) => t.name));
  });

  it("shares the registry's Map with the index: a tool added to the registry later reaches neither the index nor a turn", async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'late', arguments: {} }] }, { text: 'done' }]);
    const agent = createAgent({ provider: model, model: 'm', tools: tools.slice(0, 2) });
    const index = agent.resolved.toolScope.index!;
    const byName = index.byName;
    agent.resolved.registry.add(fakeTool('late', 'ran late'));
    expect(agent.resolved.registry.has('late')).toBe(true);
    expect([byName.has('late'), byName.size, index.get('late')]).toEqual([false, 2, undefined]);
    const events = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
    expect(model.requests[0].tools?.map((t) => t.name)).toEqual(['tool_0', 'tool_1']);
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ name: 'late', outcome: 'unknown', output: 'Unknown tool: late' });
  });

  it('a registry snapshot stays as it was taken, and the registry goes on adding (and refusing duplicates) as before', () => {
    const registry = new ToolRegistry(tools.slice(0, 2));
    const first = registry.snapshot();
    registry.add(tools[2]);
    const second = registry.snapshot();
    registry.add(tools[3]);
    expect([...first.keys()]).toEqual(['tool_0', 'tool_1']);
    expect([...second.keys()]).toEqual(['tool_0', 'tool_1', 'tool_2']);
    expect(registry.names()).toEqual(['tool_0', 'tool_1', 'tool_2', 'tool_3']);
    expect(() => registry.add(tools[0])).toThrow(DuplicateToolError);
    expect(registry.size).toBe(4);
  });
});
