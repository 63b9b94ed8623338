import { z } from 'zod';
import { ApprovalManager, createAgent, defineTool, pauseForApproval, type ApprovalFrontDoor, type ProviderRequest } from '../../src/index.js';
import { scriptedModel, type ScriptedStep } from '../../src/testing/index.js';

/**
 * The durable suites' world, the same in the test process and in the child processes it starts:
 * tools (a read, an approved write, a slow tool that a test can crash in, an idempotent one), a
 * script chosen by the user's message and followed by the history (so any process continues it),
 * and an agent that parks at every approval.
 */
export interface WorldHooks {
  /** Called when the slow tool starts (a child process tells its parent). */
  readonly onSlowStart?: (key: string) => void;
  /** The slow tool's result waits for this. */
  readonly slowDone?: (key: string, signal: AbortSignal) => Promise<void>;
  readonly ran?: string[];
}

export function worldTools(hooks: WorldHooks = {}) {
  const ran = hooks.ran ?? [];
  const lookup = defineTool({ name: 'lookup', description: 'Reads a value', risk: 'read', parameters: z.object({ key: z.string() }), execute: ({ key }) => (ran.push(`lookup ${key}`), `value of ${key}`) });
  const write = defineTool({
    name: 'write',
    description: 'Writes a note',
    risk: 'write',
    parameters: z.object({ text: z.string() }),
    approvalMarker: true,
    execute: (args: { text: string; approved?: boolean }) => (ran.push(`write ${args.text}`), `wrote ${args.text} (approved=${args.approved})`),
  });
  const slow = defineTool({
    name: 'slow',
    description: 'Takes its time',
    risk: 'read',
    parameters: z.object({ key: z.string() }),
    execute: async ({ key }, ctx) => {
      ran.push(`slow ${key}`);
      hooks.onSlowStart?.(key);
      await (hooks.slowDone?.(key, ctx.signal) ?? Promise.resolve());
      return `slow ${key} done`;
    },
  });
  const again = defineTool({
    name: 'again',
    description: 'Safe to repeat',
    risk: 'read',
    idempotent: true,
    parameters: z.object({ key: z.string() }),
    execute: async ({ key }, ctx) => {
      ran.push(`again ${key}`);
      hooks.onSlowStart?.(`again:${key}`);
      await (hooks.slowDone?.(`again:${key}`, ctx.signal) ?? Promise.resolve());
      return `again ${key} done`;
    },
  });
  return [lookup, write, slow, again];
}

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

/** Scripts by the first word of the user's message. */
export const SCRIPTS: Record<string, readonly ScriptedStep[]> = {
  // a read, then a write that needs approval, then the answer
  note: [{ toolCalls: [call('c1', 'lookup', { key: 'a' })] }, { toolCalls: [call('c2', 'lookup', { key: 'b' }), call('c3', 'write', { text: 'hello' })] }, { text: 'noted' }],
  // two approvals in two rounds
  twice: [{ toolCalls: [call('c1', 'write', { text: 'one' })] }, { toolCalls: [call('c2', 'write', { text: 'two' })] }, { text: 'both' }],
  // a batch whose second call is slow (a worker is killed in it)
  crash: [{ toolCalls: [call('c1', 'lookup', { key: 'a' }), call('c2', 'slow', { key: 'k' }), call('c3', 'lookup', { key: 'z' })] }, { text: 'survived' }],
  // the same with an idempotent tool
  repeat: [{ toolCalls: [call('c1', 'lookup', { key: 'a' }), call('c2', 'again', { key: 'k' })] }, { text: 'repeated' }],
  // no approval at all
  plain: [{ toolCalls: [call('c1', 'lookup', { key: 'a' })] }, { text: 'plain' }],
};

export function worldModel() {
  return scriptedModel((request: ProviderRequest) => {
    const user = request.messages.filter((m) => m.role === 'user');
    const first = String(user[user.length - 1]?.content ?? '').split(' ')[0];
    const script = SCRIPTS[first] ?? [{ text: 'unknown script' }];
    const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
    const step = request.messages.slice(lastUser).filter((m) => m.role === 'assistant').length;
    return script[step] ?? { text: 'out of script' };
  });
}

/** The key every process of the durable suites seals and checks snapshots with (a test value, not a secret). */
export const WORLD_SNAPSHOT_KEY = 'durable-suites-shared-snapshot-key';

/** The world's agent; `frontDoor` default parks at every approval. */
export function worldAgent(hooks: WorldHooks = {}, frontDoor: ApprovalFrontDoor = pauseForApproval()) {
  return createAgent({
    name: 'world',
    provider: worldModel(),
    model: 'm',
    tools: worldTools(hooks),
    approval: new ApprovalManager({ level: 'supervised' }, frontDoor),
    clock: { now: () => 0 }, // durations are the same in every process
    knobs: { parallelTools: true },
    snapshotKey: WORLD_SNAPSHOT_KEY, // every process of the test deployment resumes the others' turns
  });
}
