import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApprovalManager, createAgent, defineTool } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { outcomes, runTurn, scriptedDoor, toolContents } from '../prep/harness.js';

describe('deduplicated, hook-cancelled, denied, unknown, excluded and invalid-arguments slots have success: false; replaced has success: true', () => {
  it('one batch with every kind of filled slot keeps its order and success flags', async () => {
    const strict = defineTool({ name: 'strict', description: 's', parameters: z.object({ n: z.number() }), execute: () => 'ran' });
    const agent = createAgent({
      provider: scriptedModel([
        {
          toolCalls: [
            { name: 'file_read', arguments: { p: 1 } },
            { name: 'file_read', arguments: { p: 1 } },
            { name: 'blocked', arguments: {} },
            { name: 'deploy', arguments: { env: 'prod' } },
            { name: 'nope', arguments: {} },
            { name: 'rm', arguments: {} },
            { name: 'strict', arguments: { n: 'x' } },
            { name: 'deploy', arguments: { env: 'dev' } },
          ],
        },
        { text: 'ok' },
      ]),
      model: 'm',
      tools: [fakeTool('file_read', 'r'), fakeTool('blocked', 'b'), fakeTool('deploy', 'd'), fakeTool('rm', 'x'), strict],
      excludedTools: ['rm'],
      hooks: { beforeToolCall: [(call) => (call.name === 'blocked' ? { cancel: 'no' } : undefined)] },
      approval: new ApprovalManager({ autoApprove: ['file_read', 'strict'] }, scriptedDoor(['no', { replaceWith: 'pretend' }])),
    });
    const { events, done } = await runTurn(agent);
    expect(outcomes(events).map(([name, outcome, success]) => [name, outcome, success])).toEqual([
      ['file_read', 'executed', true],
      ['file_read', 'deduplicated', false],
      ['blocked', 'hook-cancelled', false],
      ['deploy', 'denied', false],
      ['nope', 'unknown', false],
      ['rm', 'excluded', false],
      ['strict', 'invalid-arguments', false],
      ['deploy', 'replaced', true],
    ]);
    expect(toolContents(done!.history)).toHaveLength(8);
    expect(toolContents(done!.history)[7]).toBe('pretend');
  });
});
