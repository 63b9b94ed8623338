import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalManager,
  createAgent,
  createReceiptGenerator,
  defineTool,
  pauseForApproval,
  type AgentConfig,
  type ObserverEvent,
  type TurnEvent,
  type TurnInput,
  type TurnSnapshot,
} from '../../src/index.js';
import { runQuietLoop } from '../../src/loop/run-tool-loop.js';
import { scriptedModel, type ScriptedResponse } from '../../src/testing/index.js';
import { doneOf } from './helpers.js';

const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
const broken = defineTool({ name: 'broken', description: 'Fails.', parameters: z.object({}), execute: () => ({ success: false, output: 'no' }) });

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwx';

const script = (): ScriptedResponse[] => [
  {
    text: `Looking with ${SECRET}. `,
    toolCalls: [
      { id: 'c1', name: 'echo', arguments: { text: 'a' } },
      { id: 'c2', name: 'broken', arguments: {} },
      { id: 'c3', name: 'echo', arguments: { text: 'b' } },
    ],
    usage: { inputTokens: 7, outputTokens: 3 },
  },
  { toolCalls: [{ id: 'c4', name: 'missing', arguments: {} }] },
  { text: `Done, key ${SECRET}.`, usage: { inputTokens: 11, outputTokens: 2 } },
];

/** An agent of `config` on a fresh copy of the script, with a fixed turn id and clock (receipts then match). */
const agentOf = (config: Partial<AgentConfig> = {}, steps = script()) =>
  createAgent({ provider: scriptedModel(steps), model: 'm', tools: [echo, broken], ids: () => 'turn-1', clock: { now: () => 1_000_000 }, ...config });

const eventsOf = (events$: ReturnType<typeof runQuietLoop>): Promise<TurnEvent[]> => lastValueFrom(events$.pipe(toArray()));

describe('agent.complete without a tracer or a logger: a quiet turn, the same outcome, the same observer events', () => {
  it('makes no event that only shows the turn: done alone, with the history, text and usage of a full run', async () => {
    const full = await eventsOf(agentOf().run({ message: 'go' }));
    expect(new Set(full.map((e) => e.type))).toEqual(new Set(['iteration', 'text-delta', 'usage', 'tool-call', 'tool-result', 'done']));
    const quiet = await eventsOf(runQuietLoop(agentOf().resolved, { message: 'go' }));
    expect(quiet.map((e) => e.type)).toEqual(['done']);
    expect(quiet[0]).toEqual(doneOf(full));
    const outcome = await agentOf().complete({ message: 'go' });
    const { type: _type, ...done } = doneOf(full);
    expect(outcome).toEqual(done);
    expect(outcome.text).toBe('Done, key [REDACTED].'); // done.text is scrubbed either way
    expect(outcome.usage).toEqual({ inputTokens: 18, outputTokens: 5 });
  });

  it('keeps the tool-result events that carry receipts (the round collects them), in completion order, and only those', async () => {
    const receipts = createReceiptGenerator(new Uint8Array(32).fill(7));
    const config = { receipts, knobs: { appendReceiptsToAnswer: true, parallelTools: true } };
    const full = await eventsOf(agentOf(config).run({ message: 'go' }));
    const quiet = await eventsOf(runQuietLoop(agentOf(config).resolved, { message: 'go' }));
    const withReceipts = full.filter((e) => e.type === 'tool-result' && e.receipt !== undefined);
    expect(withReceipts.map((e) => e.type === 'tool-result' && e.id)).toEqual(['c1', 'c3']);
    expect(quiet).toEqual([...withReceipts, doneOf(full)]);
    const outcome = await agentOf(config).complete({ message: 'go' });
    expect(outcome.text).toBe(doneOf(full).text);
    expect(outcome.text).toMatch(/rtl-receipt-v2-1000-[\w-]{43}[\s\S]*rtl-receipt-v2-1000-[\w-]{43}/);
    expect(outcome.history).toEqual(doneOf(full).history);
  });

  it('a cancelled quiet turn closes its running slots interrupted, as a full one does', async () => {
    const controller = new AbortController();
    let hang!: (name: string) => void;
    const waits = defineTool({
      name: 'wait',
      description: '',
      parameters: z.object({ name: z.string() }),
      execute: ({ name }, { signal }) => {
        hang(name);
        return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    const steps: ScriptedResponse[] = [{ toolCalls: ['a', 'b', 'c'].map((name) => ({ id: name, name: 'wait', arguments: { name } })) }, { text: 'never' }];
    const run = async (events$: (input: TurnInput) => Promise<TurnEvent[]>, signal: AbortSignal) => events$({ message: 'x', signal });
    hang = (name) => name === 'b' && queueMicrotask(() => controller.abort());
    const agent = createAgent({ provider: scriptedModel(steps), model: 'm', tools: [waits], knobs: { parallelTools: true, maxParallelTools: 2 } });
    const quiet = await run((input) => eventsOf(runQuietLoop(agent.resolved, input)), controller.signal);
    expect(quiet.map((e) => e.type)).toEqual(['done']);
    const done = doneOf(quiet);
    expect(done.reason).toBe('cancelled');
    expect(done.history.flatMap((m) => (m.role === 'tool' ? [`${m.tool_call_id}=${m.content}`] : []))).toEqual([
      'a=[interrupted before this tool produced a result]',
      'b=[interrupted before this tool produced a result]',
      'c=[interrupted before this tool produced a result]',
    ]);
  });

  it('reaches the iteration cap with the same summary and no iteration event', async () => {
    const steps = (): ScriptedResponse[] => [
      { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'a' } }] },
      { toolCalls: [{ id: 'c2', name: 'echo', arguments: { text: 'b' } }] },
      { text: 'Best so far.' },
    ];
    const config = { knobs: { maxToolIterations: 2 } };
    const full = await eventsOf(agentOf(config, steps()).run({ message: 'go' }));
    expect(full.filter((e) => e.type === 'iteration')).toHaveLength(3);
    const quiet = await eventsOf(runQuietLoop(agentOf(config, steps()).resolved, { message: 'go' }));
    expect(quiet).toEqual([doneOf(full)]);
    expect(doneOf(quiet)).toMatchObject({ reason: 'max-iterations', iterations: 3 });
  });

  it('parks at an approval with the snapshot and pending of a full turn, and resumes to the same history', async () => {
    const write = defineTool({ name: 'write', description: 'Writes', parameters: z.object({ text: z.string() }), execute: ({ text }) => `wrote ${text}` });
    const steps: ScriptedResponse[] = [{ toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'a' } }, { id: 'b', name: 'write', arguments: { text: 'x' } }] }, { text: 'all done' }];
    const parking = () => {
      let n = 0;
      return agentOf({
        // the step follows from the history, so a resumed turn continues the script
        provider: scriptedModel((request) => steps[request.messages.filter((m) => m.role === 'assistant').length]),
        tools: [echo, write],
        ids: () => `id${++n}`,
        approval: new ApprovalManager({ level: 'supervised', autoApprove: ['echo'], alwaysAsk: [] }, pauseForApproval()),
      });
    };
    const full = doneOf(await eventsOf(parking().run({ message: 'go' })));
    const quiet = await eventsOf(runQuietLoop(parking().resolved, { message: 'go' }));
    expect(quiet.map((e) => e.type)).toEqual(['approval-request', 'done']); // approvals still go out
    // the same snapshot but for its seal (each sealed snapshot has a nonce of its own)
    const unsealed = (snapshot: TurnSnapshot | undefined) => ({ ...snapshot, seal: undefined });
    expect({ ...doneOf(quiet), snapshot: unsealed(doneOf(quiet).snapshot) }).toEqual({ ...full, snapshot: unsealed(full.snapshot) });
    const outcome = await parking().complete({ message: 'go' });
    expect(outcome).toMatchObject({ reason: 'paused', pending: full.pending });
    expect(unsealed(outcome.snapshot)).toEqual(unsealed(full.snapshot));
    expect(outcome.snapshot!.seal).toEqual({ sequence: 1, nonce: expect.any(String), mac: expect.any(String) });
    const resumed = async () => {
      const agent = parking();
      return doneOf(await eventsOf(agent.resume(JSON.parse(JSON.stringify(outcome.snapshot)), { decisions: { [outcome.pending![0].requestId]: 'yes' } })));
    };
    const fromQuiet = await resumed();
    expect(fromQuiet.reason).toBe('final');
    expect(fromQuiet.history.flatMap((m) => (m.role === 'tool' ? [m.content] : []))).toEqual(['a', 'wrote x']);
  });

  it('is what complete runs on an agent without a tracer or a logger; with observers it still times each call', async () => {
    // A full turn times each call (its tool-result event shows the duration); a quiet one only for its observers.
    const readsOf = async (config: Partial<AgentConfig>, how: 'run' | 'complete') => {
      let reads = 0;
      const agent = agentOf({ ...config, clock: { now: () => (reads++, 1_000_000) } });
      if (how === 'run') await eventsOf(agent.run({ message: 'go' }));
      else await agent.complete({ message: 'go' });
      return reads;
    };
    const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
    const observers = [() => {}];
    expect(await readsOf({}, 'complete')).toBeLessThan(await readsOf({}, 'run'));
    // run with observers also stamps each call's start, to close its card if the turn is unsubscribed
    expect(await readsOf({ observers }, 'complete')).toBeLessThanOrEqual(await readsOf({ observers }, 'run'));
    expect(await readsOf({ observers }, 'complete')).toBeGreaterThan(await readsOf({}, 'complete'));
    expect(await readsOf({ logger }, 'complete')).toBe(await readsOf({ logger }, 'run'));
  });

  it('a tracer still gets a span for every tool that runs through complete (its turn is not quiet then)', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    try {
      await agentOf({ tracer: provider.getTracer('test') }).complete({ message: 'go' });
      await provider.forceFlush();
      const tools = exporter.getFinishedSpans().filter((span) => span.name.startsWith('execute_tool'));
      expect(tools.map((span) => span.name).sort()).toEqual(['execute_tool broken', 'execute_tool echo', 'execute_tool echo']); // an unknown tool runs nothing
    } finally {
      await provider.shutdown();
    }
  });

  it('observers see every call through complete as through run, durations included (the quiet turn tells them directly)', async () => {
    const told = async (how: 'run' | 'complete') => {
      const seen: ObserverEvent[] = [];
      let t = 0;
      const agent = agentOf({ observers: [(e) => seen.push(e)], clock: { now: () => (t += 5) } });
      const outcome = how === 'run' ? doneOf(await eventsOf(agent.run({ message: 'go' }))) : await agent.complete({ message: 'go' });
      return { seen, outcome };
    };
    const full = await told('run');
    const { seen: events, outcome } = await told('complete');
    expect(events).toEqual(full.seen);
    expect(events.filter((e) => e.type === 'tool-call-end').map((e) => e.type === 'tool-call-end' && e.durationMs)).toEqual([5, 5, 5, 0]); // the unknown tool never ran
    expect(events.find((e) => e.type === 'tool-call-start')?.arguments).toEqual({ text: 'a' });
    expect(outcome.history).toEqual(full.outcome.history);
    const seen = events.map((e) => `${e.type}:${e.toolCallId}`);
    expect(seen).toEqual([
      'tool-call-start:c1',
      'tool-call-end:c1',
      'tool-call-start:c2',
      'tool-call-end:c2',
      'tool-call-start:c3',
      'tool-call-end:c3',
      'tool-call-start:c4',
      'tool-call-end:c4',
    ]);
    expect(outcome.reason).toBe('final');
  });

  it('a cancelled quiet turn with observers announces every slot once, and each interruption with the time it ran, as a full one does', async () => {
    const told = async (how: 'run' | 'quiet') => {
      const controller = new AbortController();
      const waits = defineTool({
        name: 'wait',
        description: '',
        parameters: z.object({ name: z.string() }),
        execute: ({ name }, { signal }) => {
          if (name === 'b') queueMicrotask(() => controller.abort());
          return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
        },
      });
      const steps: ScriptedResponse[] = [{ toolCalls: ['a', 'b', 'c'].map((name) => ({ id: name, name: 'wait', arguments: { name } })) }, { text: 'never' }];
      const seen: string[] = [];
      let t = 0;
      const agent = createAgent({
        provider: scriptedModel(steps),
        model: 'm',
        tools: [waits],
        knobs: { parallelTools: true, maxParallelTools: 2 },
        clock: { now: () => (t += 10) },
        observers: [(e) => seen.push(e.type === 'tool-call-end' ? `end ${e.toolCallId} ${e.outcome} ${e.durationMs}` : `start ${e.toolCallId}`)],
      });
      const input = { message: 'x', signal: controller.signal };
      const events = await eventsOf(how === 'run' ? agent.run(input) : runQuietLoop(agent.resolved, input));
      return { seen, events, done: doneOf(events) };
    };
    const full = await told('run');
    const quiet = await told('quiet');
    expect(quiet.seen).toEqual(full.seen);
    expect(quiet.seen.filter((line) => line.startsWith('start'))).toEqual(['start a', 'start b', 'start c']); // c never started: announced when closed
    expect(quiet.seen.filter((line) => line.startsWith('end')).map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'end a interrupted',
      'end b interrupted',
      'end c interrupted',
    ]);
    const ran = quiet.seen.filter((line) => / (a|b) interrupted /.test(line)).map((line) => Number(line.split(' ')[3]));
    expect(ran).toHaveLength(2);
    expect(ran.every((ms) => ms > 0)).toBe(true);
    expect(quiet.done).toEqual(full.done);
    // the turn keeps its tool-call events (closeUnfinished reads them), and no other event that only shows it
    expect(new Set(quiet.events.map((e) => e.type))).toEqual(new Set(['tool-call', 'done']));
  });
});
