import { lastValueFrom, type Observable, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalManager,
  createAgent,
  defineTool,
  pauseForApproval,
  SnapshotMismatchError,
  SnapshotTamperedError,
  StructuredOutputError,
  TurnInputError,
  type ProviderRequest,
  type TurnEvent,
  type TurnEventOf,
  type TurnSnapshot,
} from '../../src/index.js';
import { scriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { snapshotShape } from '../../src/loop/snapshot-schema.js';
import { durableAgent, memoryTurnStore } from '../../src/durable/index.js';

const report = z.object({ done: z.boolean(), note: z.string() });
const otherReport = z.object({ done: z.boolean(), note: z.string(), extra: z.number().optional() });

const writeCall: ScriptedStep = { toolCalls: [{ id: 'w1', name: 'write', arguments: { text: 'hello' } }] };

function agentFor(script: readonly ScriptedStep[], knobs = {}) {
  const ran: string[] = [];
  const write = defineTool({ name: 'write', description: 'Writes', parameters: z.object({ text: z.string() }), risk: 'write', execute: ({ text }) => (ran.push(text), 'written') });
  // the step follows from the history, so a resumed turn picks the script up where it stopped
  const provider = scriptedModel((request: ProviderRequest) => script[request.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'out of script' });
  const agent = createAgent({ provider, model: 'm', tools: [write], approval: new ApprovalManager({}, pauseForApproval()), knobs });
  return { agent, ran, provider };
}

const events = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const doneOf = (all: TurnEvent[]) => all.at(-1) as TurnEventOf<'done'>;
/** The snapshot as a store gives it back. */
const stored = (snapshot: TurnSnapshot | undefined): TurnSnapshot => JSON.parse(JSON.stringify(snapshot));

describe('structured output across a parked turn: the retry count is in the snapshot, the schema comes again with resume', () => {
  it('a turn parks with its output fingerprint and retry count, and resumes to done.object', async () => {
    const { agent, ran, provider } = agentFor([{ text: 'not json yet' }, writeCall, { text: '{"done": true, "note": "wrote it"}' }]);
    const parked = await agent.complete({ message: 'write hello, then report', output: report });
    expect(parked.reason).toBe('paused');
    const snapshot = stored(parked.snapshot);
    expect(snapshot.output).toEqual({ fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{32}$/), retries: 1 });
    expect(snapshotShape(snapshot).output).toEqual(snapshot.output); // the schema resume checks keeps it
    const resumed = doneOf(await events(agent.resume(snapshot, { decisions: { [parked.pending![0].requestId]: 'yes' }, output: report })));
    expect(ran).toEqual(['hello']);
    expect(resumed.reason).toBe('final');
    expect(resumed.object).toEqual({ done: true, note: 'wrote it' });
    expect(provider.requests.at(-1)?.output?.name).toBe('output');
  });

  it('the retries spent before the park count after the resume', async () => {
    const { agent } = agentFor([{ text: 'not json' }, writeCall, { text: 'still not json' }], { maxStructuredOutputRetries: 1 });
    const parked = await agent.complete({ message: 'go', output: report });
    const err = await events(agent.resume(stored(parked.snapshot), { decisions: { [parked.pending![0].requestId]: 'yes' }, output: report })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StructuredOutputError);
    expect((err as StructuredOutputError).retries).toBe(1);
    expect((err as StructuredOutputError).text).toBe('still not json');
  });

  it('a resume without the schema fails closed, runs nothing, and leaves the snapshot to a resume that passes it', async () => {
    const { agent, ran } = agentFor([writeCall, { text: '{"done": true, "note": "ok"}' }]);
    const parked = await agent.complete({ message: 'go', output: report });
    const decisions = { [parked.pending![0].requestId]: 'yes' as const };
    await expect(events(agent.resume(stored(parked.snapshot), { decisions }))).rejects.toThrow(
      new SnapshotMismatchError('The turn was started with an output schema: resume it with the same one (`resume(snapshot, { decisions, output })`).'),
    );
    await expect(events(agent.resume(stored(parked.snapshot), { decisions, output: otherReport }))).rejects.toThrow(
      new SnapshotMismatchError('The output schema is not the one the turn was started with.'),
    );
    expect(ran).toEqual([]);
    const done = doneOf(await events(agent.resume(stored(parked.snapshot), { decisions, output: report })));
    expect(done.object).toEqual({ done: true, note: 'ok' });
    expect(ran).toEqual(['hello']);
  });

  it('a turn started without a schema cannot be resumed with one', async () => {
    const { agent, ran } = agentFor([writeCall, { text: 'plain answer' }]);
    const parked = await agent.complete({ message: 'go' });
    expect(parked.snapshot).not.toHaveProperty('output');
    const decisions = { [parked.pending![0].requestId]: 'yes' as const };
    await expect(events(agent.resume(stored(parked.snapshot), { decisions, output: report }))).rejects.toThrow(
      new SnapshotMismatchError('The turn was started without an output schema: resume it without one.'),
    );
    expect(ran).toEqual([]);
  });

  it("the seal covers the output state: a snapshot whose retry count was changed is refused", async () => {
    const { agent } = agentFor([{ text: 'nope' }, writeCall]);
    const parked = await agent.complete({ message: 'go', output: report });
    const changed = stored(parked.snapshot);
    const forged = { ...changed, output: { ...changed.output!, retries: 0 } };
    await expect(events(agent.resume(forged, { decisions: { [parked.pending![0].requestId]: 'yes' }, output: report }))).rejects.toBeInstanceOf(SnapshotTamperedError);
  });

  it('durableAgent refuses a turn with an output schema (it cannot store one) instead of dropping it', async () => {
    const { agent, provider } = agentFor([{ text: '{"done": true, "note": "x"}' }]);
    const durable = durableAgent(agent, { store: memoryTurnStore() });
    await expect(durable.submit({ message: 'go', output: report })).rejects.toBeInstanceOf(TurnInputError);
    await expect(events(durable.run({ message: 'go', output: report }))).rejects.toBeInstanceOf(TurnInputError);
    expect(provider.requests).toHaveLength(0);
  });
});
