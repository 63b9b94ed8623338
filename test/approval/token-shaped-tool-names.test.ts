import { lastValueFrom } from 'rxjs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, cliApproval, createAgent, type ApprovalRequest } from '../../src/index.js';
import { promptText } from '../../src/approval/cli-approval.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { leakedWindows } from '../fixtures/secrets-corpus.js';
import { tokenShapedToolNames } from '../fixtures/token-tool-names.js';
import { ofType, runTurn, scriptedDoor } from '../prep/harness.js';

/** Issue 16, item 4: a tool name shaped like a token is scrubbed where the operator reads the request. */

const names = tokenShapedToolNames();
const request = (toolName: string): ApprovalRequest => ({ requestId: 'r1', toolName, arguments: { cmd: 'ls' }, argumentsSummary: 'cmd: ls', channel: 'cli' });

describe('approval surfaces scrub a token-shaped tool name', () => {
  it('the corpus gives several token shapes that are valid tool names', () => {
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(names.some((n) => n.startsWith('ghp_'))).toBe(true);
    expect(names.some((n) => n.startsWith('sk-'))).toBe(true);
  });

  it.each(names.map((name) => [`${name.slice(0, 5)}…`, name]))('the CLI prompt for a tool named %s shows [REDACTED] where the name was', (_, name) => {
    const text = promptText(request(name));
    expect(leakedWindows(text, name)).toEqual([]);
    expect(text).toContain('[REDACTED] will receive:');
    expect(text).toContain('Approve tool call [REDACTED] (cmd: ls)?');
  });

  it('the CLI front door writes the scrubbed name to its output', async () => {
    const input = new PassThrough();
    let written = '';
    const decided = lastValueFrom(new ApprovalManager({}, cliApproval({ input, output: { write: (t: string) => (written += t) } })).decide(request(names[0])));
    input.write('n\n');
    await decided;
    expect(leakedWindows(written, names[0])).toEqual([]);
    expect(written).toContain('[REDACTED]');
  });

  it('the turn’s approval-request and approval-decision events carry the scrubbed name; the front door and the tool get the real one', async () => {
    const door = scriptedDoor(names.map(() => 'yes' as const));
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: names.map((name, i) => ({ id: `c${i}`, name, arguments: {} })) }, { text: 'ok' }]),
      model: 'm',
      tools: names.map((name) => fakeTool(name, 'ran')),
      approval: new ApprovalManager({}, door),
    });
    const { events } = await runTurn(agent);
    const shown = JSON.stringify([...ofType(events, 'approval-request'), ...ofType(events, 'approval-decision')]);
    expect(ofType(events, 'approval-request')).toHaveLength(names.length);
    for (const name of names) expect({ name, leaked: leakedWindows(shown, name) }).toEqual({ name, leaked: [] });
    expect(door.asked.map((r) => r.toolName)).toEqual(names);
    expect(ofType(events, 'tool-result').map((e) => e.output)).toEqual(names.map(() => 'ran'));
  });
});
