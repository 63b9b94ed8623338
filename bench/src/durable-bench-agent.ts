import { z } from 'zod';
import type * as Lib from '../../src/index.js';
import type * as Testing from '../../src/testing/index.js';

/** The snapshot key every process of the durable bench seals and checks with (not a secret). */
const SNAPSHOT_KEY = 'durable-bench-shared-snapshot-key';

/**
 * The durable bench's agent, the same in every process: the scripted model asks for one
 * `write_note` call, which needs an approval (the turn parks there), then, once the call ran,
 * answers 'noted'. The script follows the history, so any process continues any turn.
 */
export function durableBenchAgent(lib: typeof Lib, testing: typeof Testing): Lib.Agent {
  const writeNote = lib.defineTool({
    name: 'write_note',
    description: 'Writes a note (needs an approval).',
    risk: 'write',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => `wrote ${text}`,
  });
  const model = testing.scriptedModel((request: Lib.ProviderRequest) => {
    const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
    const answered = request.messages.slice(lastUser).some((m) => m.role === 'assistant');
    return answered ? { text: 'noted' } : { toolCalls: [{ id: 'c1', name: 'write_note', arguments: { text: 'hello' } }] };
  });
  return lib.createAgent({
    name: 'bench',
    provider: model,
    model: 'bench',
    tools: [writeNote],
    approval: new lib.ApprovalManager({ level: 'supervised' }, lib.pauseForApproval()),
    snapshotKey: SNAPSHOT_KEY,
  });
}
