import fc from 'fast-check';
import { lastValueFrom, tap, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApprovalManager, createAgent, defineTool, type ObserverEvent, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { door } from './bypass-helpers.js';
import { expectHealthyTurn } from './turn-runner.js';

/**
 * Issue 16, item 2: aborting the turn's signal on the card (`tool-call`, or the observer's
 * `tool-call-start`) of a slot that preparation filled ends the turn with `done` (`cancelled`)
 * and the round in history, one result per slot — as for executable slots.
 */

type Kind = 'ok' | 'unknown' | 'denied' | 'invalid' | 'duplicate';
const KINDS: readonly Kind[] = ['ok', 'unknown', 'denied', 'invalid', 'duplicate'];

const ok = defineTool({ name: 'ok', description: 'runs', parameters: z.object({ n: z.number() }), execute: ({ n }) => `ran ${n}` });
const guarded = defineTool({ name: 'guarded', description: 'needs approval', parameters: z.object({ n: z.number() }), execute: () => 'ran' });

function callOf(kind: Kind, slot: number) {
  const id = `c${slot}`;
  switch (kind) {
    case 'ok':
      return { id, name: 'ok', arguments: { n: slot } };
    case 'unknown':
      return { id, name: 'no_such_tool', arguments: {} };
    case 'denied':
      return { id, name: 'guarded', arguments: { n: slot } };
    case 'invalid':
      return { id, name: 'ok', arguments: { n: 'not a number' } };
    case 'duplicate':
      return { id, name: 'ok', arguments: { n: -1 } }; // the second and later copies are deduplicated
  }
}

/** Runs a batch; aborts the signal on the `at`-th card (0-based) of a filled slot, by event consumer or observer. */
async function cancelOnFilledCard(kinds: readonly Kind[], at: number, by: 'consumer' | 'observer', parallel = false) {
  const controller = new AbortController();
  const calls = kinds.map(callOf);
  if (kinds.includes('duplicate')) calls.unshift({ id: 'first', name: 'ok', arguments: { n: -1 } });
  const model = scriptedModel([{ toolCalls: calls }, { text: 'unreachable' }]);
  let filledSeen = 0;
  const maybeCancel = (executes: boolean) => {
    if (!executes && filledSeen++ === at) controller.abort();
  };
  const observers = by === 'observer' ? [(e: ObserverEvent) => e.type === 'tool-call-start' && maybeCancel(executesById.get(e.toolCallId) ?? true)] : [];
  const executesById = new Map<string, boolean>();
  const agent = createAgent({
    provider: model,
    model: 'm',
    tools: [ok, guarded],
    approval: new ApprovalManager({ alwaysAsk: ['guarded'] }, door('no')),
    observers,
    knobs: { parallelTools: parallel },
  });
  // The consumer records each event before it reacts to it (as a renderer would), so a cancel
  // made on a card can only add events after that card.
  const events: TurnEvent[] = [];
  await lastValueFrom(
    agent.run({ message: 'go', signal: controller.signal }).pipe(
      tap((e) => {
        events.push(e);
        if (e.type !== 'tool-call') return;
        executesById.set(e.id, e.executes);
        if (by === 'consumer') maybeCancel(e.executes);
      }),
      toArray(),
    ),
  );
  return { events, calls, model, cancelled: controller.signal.aborted };
}

function expectCancelledWithRound(run: Awaited<ReturnType<typeof cancelOnFilledCard>>) {
  const done = run.events.at(-1);
  expect(done?.type).toBe('done');
  if (done?.type !== 'done') return;
  expectHealthyTurn({ events: run.events, done }, run.model.requests);
  expect(done.reason).toBe(run.cancelled ? 'cancelled' : 'final');
  const assistant = done.history.find((m) => m.role === 'assistant' && m.tool_calls !== undefined);
  expect(assistant?.role === 'assistant' ? assistant.tool_calls!.map((c) => c.id) : []).toEqual(run.calls.map((c) => c.id));
  const results = done.history.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? m.tool_call_id : ''));
  expect(results).toEqual(run.calls.map((c) => c.id));
  expect(run.events.filter((e) => e.type === 'tool-result')).toHaveLength(run.calls.length);
}

describe('cancelling on the card of a slot filled by preparation', () => {
  describe.each(['consumer', 'observer'] as const)('by an event %s', (by) => {
    it.each([
      ['unknown', ['unknown', 'ok']],
      ['denied', ['denied', 'ok']],
      ['invalid arguments', ['invalid', 'ok']],
      ['deduplicated', ['duplicate', 'ok']],
      ['the last slot, unknown', ['ok', 'unknown']],
      ['every slot filled', ['unknown', 'invalid', 'unknown']],
    ] as const)('%s: done with reason cancelled and the round in history', async (_, kinds) => {
      const run = await cancelOnFilledCard(kinds, 0, by);
      expect(run.cancelled).toBe(true);
      expectCancelledWithRound(run);
    });

    it('in a parallel batch', async () => {
      const run = await cancelOnFilledCard(['ok', 'unknown', 'invalid', 'ok'], 0, by, true);
      expect(run.cancelled).toBe(true);
      expectCancelledWithRound(run);
    });
  });

  it('a random batch cancelled at a random filled card always ends with done and one result per slot', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 7 }),
        fc.nat({ max: 7 }),
        fc.constantFrom('consumer' as const, 'observer' as const),
        fc.boolean(),
        async (kinds, at, by, parallel) => {
          const run = await cancelOnFilledCard(kinds, at, by, parallel);
          expectCancelledWithRound(run);
        },
      ),
      { numRuns: 150 },
    );
  });
});
