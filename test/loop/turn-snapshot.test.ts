import { EMPTY, expand, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalManager,
  backchannelApproval,
  createAgent,
  createReceiptGenerator,
  defineTool,
  TURN_SNAPSHOT_VERSION,
  type TurnEvent,
  type TurnSnapshot,
} from '../../src/index.js';
import { createTurnContext, endTurn, isIterationStep, iterate, startSnapshot, type IterationStep } from '../../src/operators.js';
import { scriptedModel } from '../../src/testing/index.js';
import { leaksOf } from '../fixtures/leak-search.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a key up',
  parameters: z.object({ key: z.string() }),
  risk: 'read',
  execute: ({ key }) => `value of ${key}`,
});
const write = defineTool({
  name: 'write',
  description: 'Writes',
  parameters: z.object({ text: z.string() }),
  approvalMarker: true,
  execute: ({ text }) => `wrote ${text}`,
});

/** A turn that touches every part of a snapshot: receipts, loop notes, prompt signatures, usage. */
function agentFor() {
  let n = 0;
  return createAgent({
    // the step follows from the history (one per assistant message so far), so a turn continued from a snapshot goes on where it stood
    provider: scriptedModel((request) => SCRIPT[request.messages.filter((m) => m.role === 'assistant').length]),
    model: 'm',
    tools: [lookup, write],
    receipts: createReceiptGenerator(new Uint8Array(32).fill(7)),
    approval: new ApprovalManager({ level: 'supervised', autoApprove: ['lookup'], alwaysAsk: ['write'] }, backchannelApproval(() => 'no')),
    knobs: { loopDetection: { maxRepeats: 2 } },
    clock: { now: () => 1_700_000_000_000 },
    ids: () => `id${++n}`,
  });
}

const SCRIPT = [
      { toolCalls: [{ id: 'a', name: 'lookup', arguments: { key: 'k' } }, { id: 'b', name: 'write', arguments: { text: 'x' } }], usage: { inputTokens: 10, outputTokens: 2 } },
      { toolCalls: [{ id: 'c', name: 'lookup', arguments: { key: 'k' } }] },
      { toolCalls: [{ id: 'd', name: 'lookup', arguments: { key: 'k' } }] },
      { text: 'done', usage: { inputTokens: 20, outputTokens: 5 } },
];

/** Runs the turn from `snapshot`, collecting every step's snapshot and the events. */
async function runFrom(agent: ReturnType<typeof agentFor>, snapshot: TurnSnapshot | undefined) {
  const turn = createTurnContext(agent.resolved, { message: 'go', ingress: { channel: 'cli', turnId: 'turn-1' } });
  const steps: IterationStep[] = [];
  const events: TurnEvent[] = await lastValueFrom(
    iterate(turn, snapshot ?? startSnapshot(turn, { message: 'go' })).pipe(
      expand((v) => {
        if (!isIterationStep(v)) return EMPTY;
        steps.push(v);
        return v.kind === 'next' ? iterate(turn, v.snapshot) : EMPTY;
      }),
      endTurn(),
      toArray(),
    ),
  );
  return { steps, events };
}

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('TurnSnapshot: a turn as plain data', () => {
  it('every snapshot of a turn round-trips through JSON without loss', async () => {
    const { steps } = await runFrom(agentFor(), undefined);
    expect(steps.length).toBeGreaterThan(2);
    for (const { snapshot } of steps) expect(roundTrip(snapshot)).toEqual(snapshot);
    const last = steps.at(-1)!.snapshot;
    // the parts the turn filled in
    expect(last).toMatchObject({ version: TURN_SNAPSHOT_VERSION, agent: 'agent', turnId: 'turn-1', iteration: 4, model: 'm' });
    expect(last.receipts.length).toBe(3);
    expect(Object.keys(last.promptSignatures)).toHaveLength(1);
    expect(last.loopWindow.names).toEqual(['lookup', 'lookup', 'lookup']);
    expect(last.usage).toEqual({ inputTokens: 30, outputTokens: 7 });
    expect(steps.some((s) => s.snapshot.notes.length > 0)).toBe(true);
  });

  it('a turn continued from a snapshot that went through JSON emits the same events and history', async () => {
    const whole = await runFrom(agentFor(), undefined);
    for (let k = 0; k < whole.steps.length - 1; k++) {
      const from = whole.steps[k].snapshot;
      const original = await runFrom(agentFor(), from);
      const parsed = await runFrom(agentFor(), roundTrip(from));
      expect(parsed.events).toEqual(original.events);
      expect(parsed.events.at(-1)).toEqual(whole.events.at(-1));
    }
  });

  it('holds no secret of the agent: the receipt key is not in it', async () => {
    const { steps } = await runFrom(agentFor(), undefined);
    expect(leaksOf(steps.map((s) => s.snapshot), new Uint8Array(32).fill(7))).toEqual([]);
  });

  it('a batch in flight, each slot in its state, round-trips too', () => {
    const snapshot: TurnSnapshot = {
      ...startSnapshot(createTurnContext(agentFor().resolved, { message: 'go' }), { message: 'go' }),
      batch: {
        text: '',
        fromText: false,
        calls: [
          { slot: 0, id: 'a', name: 'lookup', args: { key: 'k' }, rawArguments: '{"key":"k"}' },
          { slot: 1, id: 'b', name: 'write', args: { text: 'x' }, rawArguments: '{"text":"x"}' },
          { slot: 2, id: 'c', name: 'nope', args: {}, rawArguments: '{}' },
          { slot: 3, id: 'd', name: 'lookup', args: { key: 'j' }, rawArguments: '{"key":"j"}' },
        ],
        slots: [
          { state: 'done', result: { slot: 0, id: 'a', name: 'lookup', outcome: 'executed', success: true, content: 'v', output: 'v', durationMs: 3 } },
          {
            state: 'awaiting-approval',
            request: { requestId: 'r1', toolName: 'write', arguments: { text: 'x', approved: false }, argumentsSummary: 'text: x', channel: 'cli' },
            name: 'write',
            args: { text: 'x', approved: false },
            signature: 'write {"text":"x"}',
          },
          { state: 'filled', name: 'nope', args: {}, outcome: 'unknown', output: 'Unknown tool: nope', success: false },
          { state: 'pending' },
        ],
        promptedInBatch: ['write {"text":"x"}'],
        toolSchemas: { lookup: 'sha256:00', write: 'sha256:01' },
      },
    };
    expect(roundTrip(snapshot)).toEqual(snapshot);
  });
});
