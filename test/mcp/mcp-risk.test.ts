import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalManager, ConfigurationError, createAgent, mcpTools, type McpToolInfo, type ToolRisk } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { outcomes, runTurn, scriptedDoor } from '../prep/harness.js';
import { fixtureForSuite, serveTools, toolsRan } from './fixture-client.js';

type Annotations = McpToolInfo['annotations'];

/** A real server process (the fixture) that lists, for each rule, one tool per annotation shape and answers every call with 'ran'. */
const fixture = fixtureForSuite({ baseTools: false, listing: {} });

const serve = (annotated: Record<string, Annotations>) => serveTools(fixture.client, { tools: Object.entries(annotated).map(([name, annotations]) => ({ name, annotations })), listing: {} });

const SHAPES: Record<string, Annotations> = {
  plain: undefined,
  empty: {},
  read_only: { readOnlyHint: true },
  read_only_false: { readOnlyHint: false },
  destructive: { destructiveHint: true },
  both: { readOnlyHint: true, destructiveHint: true },
  not_destructive: { destructiveHint: false },
  read_not_destructive: { readOnlyHint: true, destructiveHint: false },
};

async function risks(options: { trustAnnotations?: boolean; risk?: ToolRisk } = {}): Promise<Record<string, ToolRisk | undefined>> {
  const tools = await mcpTools(fixture.client, { server: 's', ...options });
  return Object.fromEntries(tools.map((t) => [t.attribution.originalName!, t.risk]));
}

describe("MCP risk: destructiveHint → 'exec' always; readOnlyHint → 'read' only for a trusted server; otherwise 'write'", () => {
  beforeAll(() => serve(SHAPES));

  it("an untrusted server's readOnlyHint is ignored: every tool is 'write' unless destructive", async () => {
    expect(await risks()).toEqual({
      plain: 'write',
      empty: 'write',
      read_only: 'write',
      read_only_false: 'write',
      destructive: 'exec',
      both: 'exec',
      not_destructive: 'write',
      read_not_destructive: 'write',
    });
    expect(await risks({ trustAnnotations: false })).toEqual(await risks());
  });

  it("a trusted server's readOnlyHint lowers to 'read'; a destructiveHint still raises to 'exec'", async () => {
    expect(await risks({ trustAnnotations: true })).toEqual({
      plain: 'write',
      empty: 'write',
      read_only: 'read',
      read_only_false: 'write',
      destructive: 'exec',
      both: 'exec',
      not_destructive: 'write',
      read_not_destructive: 'read',
    });
  });

  it("the caller's risk applies to every tool; a destructiveHint raises it to 'exec', an explicit readOnlyHint: false to 'write'", async () => {
    for (const risk of ['read', 'egress', 'write'] as const) {
      const got = await risks({ risk, trustAnnotations: true });
      for (const [name, value] of Object.entries(got)) {
        const expected = SHAPES[name]?.destructiveHint ? 'exec' : SHAPES[name]?.readOnlyHint === false ? 'write' : risk;
        expect([name, value]).toEqual([name, expected]);
      }
    }
    expect(new Set(Object.values(await risks({ risk: 'network' as ToolRisk })))).toEqual(new Set(['egress', 'write', 'exec']));
  });

  it('a risk that is no level is a ConfigurationError', async () => {
    await expect(mcpTools(fixture.client, { server: 's', risk: 'reed' as ToolRisk })).rejects.toBeInstanceOf(ConfigurationError);
  });
});

describe('the MCP risk decides approval and the risk profile', () => {
  beforeEach(() => serve({ drop_db: { readOnlyHint: true }, list_tables: { readOnlyHint: true }, wipe: { readOnlyHint: true, destructiveHint: true } }));
  const callAll = (names: string[]) => scriptedModel([{ toolCalls: names.map((name, i) => ({ id: `c${i}`, name, arguments: {} })) }, { text: 'ok' }]);

  it('untrusted: a readOnlyHint tool prompts (denied without an operator) and risks: [read] leaves it out', async () => {
    const tools = await mcpTools(fixture.client, { server: 'db' });
    const operator = scriptedDoor([]);
    const run = await runTurn(
      createAgent({ provider: callAll(['db__drop_db', 'db__list_tables']), model: 'm', tools, approval: new ApprovalManager({}, operator) }),
    );
    expect(outcomes(run.events).map(([name, outcome]) => [name, outcome])).toEqual([
      ['db__drop_db', 'denied'],
      ['db__list_tables', 'denied'],
    ]);
    expect(await toolsRan(fixture.client)).toEqual([]);
    const model = callAll(['db__drop_db']);
    const filtered = await runTurn(createAgent({ provider: model, model: 'm', tools, riskProfile: { risks: ['read'] } }));
    expect(model.requests[0].tools ?? []).toEqual([]);
    expect(outcomes(filtered.events).map(([, outcome]) => outcome)).toEqual(['excluded']);
    expect(await toolsRan(fixture.client)).toEqual([]);
  });

  it('trusted: a readOnlyHint tool runs without a prompt; a destructive one still prompts and is filtered out', async () => {
    const tools = await mcpTools(fixture.client, { server: 'db', trustAnnotations: true });
    const operator = scriptedDoor([]);
    const run = await runTurn(
      createAgent({ provider: callAll(['db__list_tables', 'db__wipe']), model: 'm', tools, approval: new ApprovalManager({}, operator) }),
    );
    expect(outcomes(run.events).map(([name, outcome]) => [name, outcome])).toEqual([
      ['db__list_tables', 'executed'],
      ['db__wipe', 'denied'],
    ]);
    expect(operator.asked.map((r) => r.toolName)).toEqual(['db__wipe']);
    expect(await toolsRan(fixture.client)).toEqual(['list_tables']);
    const model = callAll([]);
    await runTurn(createAgent({ provider: model, model: 'm', tools, riskProfile: { risks: ['read'] } }));
    expect(model.requests[0].tools?.map((t) => t.name)).toEqual(['db__drop_db', 'db__list_tables']);
  });
});
