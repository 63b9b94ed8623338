import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalManager,
  createAgent,
  defineTool,
  pauseForApproval,
  textProtocolProvider,
  type ObserverEvent,
  type ProviderEvent,
  type ToolContext,
  type TurnEvent,
  type TurnEventOf,
} from '../../src/index.js';
import { durableAgent, memoryTurnStore } from '../../src/durable/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { expectHealthyTurn, recordingLogger, runTurn, slotSummary, failOnProcessFaults } from './turn-runner.js';
import { leaksOf } from '../fixtures/leak-search.js';

/**
 * What an integrator plugs in, used the wrong way (BEHAVIOUR.md, Robustness): a tool's signal read
 * late, unsubscribing mid-batch, a token as an argument key, a turn that came in without a
 * channel, a text-protocol model. Every case ends the turn as the rule says, and neither
 * `uncaughtException` nor `unhandledRejection` fires.
 */

failOnProcessFaults();

const collect = (events$: ReturnType<ReturnType<typeof createAgent>['run']>) => lastValueFrom(events$.pipe(toArray()));

describe("a slot's signal reads aborted once the slot closed, however late the tool first reads it", () => {
  /** A tool that first touches `ctx.signal` after it was released: what it reads then is recorded. */
  function lateReader() {
    const seen: { aborted: boolean; reason: unknown }[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const tool = defineTool({
      name: 'late',
      description: '',
      parameters: z.object({}),
      execute: async (_args, ctx: ToolContext) => {
        started();
        await released;
        seen.push({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
        return 'ran to the end';
      },
    });
    return { tool, seen, running, release };
  }
  const model = () => scriptedModel([{ toolCalls: [{ id: 'c0', name: 'late', arguments: {} }] }, { text: 'done' }]);

  it('after an abort of the turn', async () => {
    const { tool, seen, running, release } = lateReader();
    const controller = new AbortController();
    const turn = collect(createAgent({ provider: model(), model: 'm', tools: [tool] }).run({ message: 'go', signal: controller.signal }));
    await running;
    controller.abort();
    const events = await turn;
    release();
    await released(seen);
    expect(seen[0].aborted).toBe(true);
    expect(slotSummary(events)[0][2]).toBe('interrupted');
  });

  it('after an unsubscribe', async () => {
    const { tool, seen, running, release } = lateReader();
    const sub = createAgent({ provider: model(), model: 'm', tools: [tool] }).run({ message: 'go' }).subscribe();
    await running;
    sub.unsubscribe();
    release();
    await released(seen);
    expect(seen[0].aborted).toBe(true);
  });

  it('after its toolTimeoutMs', async () => {
    const { tool, seen, release } = lateReader();
    const run = await runTurn(createAgent({ provider: model(), model: 'm', tools: [tool], knobs: { toolTimeoutMs: 1 } }));
    release();
    await released(seen);
    expect(seen[0]).toEqual({ aborted: true, reason: expect.objectContaining({ code: 'tool_timeout' }) });
    expect(slotSummary(run.events)[0].slice(2, 4)).toEqual(['failed', false]);
    expect(slotSummary(run.events)[0][4]).toMatch(/timed out after 1 ms/);
  });

  it("after the tool's own timeoutMs", async () => {
    const { seen, release } = lateReader();
    const own = defineTool({
      name: 'late',
      description: '',
      parameters: z.object({}),
      timeoutMs: 1,
      execute: async (_args, ctx: ToolContext) => {
        await new Promise((resolve) => setTimeout(resolve, 20)); // past its own deadline
        seen.push({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
        return 'ran to the end';
      },
    });
    const run = await runTurn(createAgent({ provider: model(), model: 'm', tools: [own] }));
    release();
    await released(seen);
    expect(seen[0]).toEqual({ aborted: true, reason: expect.objectContaining({ code: 'tool_timeout' }) });
    expect(slotSummary(run.events)[0].slice(2, 4)).toEqual(['failed', false]);
  });

  it('in every slot of a parallel batch, after an abort of the turn', async () => {
    const { tool, seen, running, release } = lateReader();
    const calls = [0, 1, 2].map((i) => ({ id: `c${i}`, name: 'late', arguments: {} }));
    const controller = new AbortController();
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: calls }, { text: 'done' }]), model: 'm', tools: [tool], knobs: { parallelTools: true, dedupEnabled: false } }); // three alike calls: none deduplicated
    const turn = collect(agent.run({ message: 'go', signal: controller.signal }));
    await running;
    controller.abort();
    const events = await turn;
    release();
    while (seen.length < 3) await new Promise((resolve) => setImmediate(resolve));
    expect(seen.map((s) => s.aborted)).toEqual([true, true, true]);
    expect(slotSummary(events).map((slot) => slot[2])).toEqual(['interrupted', 'interrupted', 'interrupted']);
  });

  /** Resolves once the tool recorded what it read (it was released). */
  async function released(seen: unknown[]): Promise<void> {
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
  }
});

describe('unsubscribing closes every observer card, as an abort does', () => {
  for (const parallelTools of [true, false]) {
    it(`${parallelTools ? 'a parallel' : 'a sequential'} batch of three tools that never end`, async () => {
      const events: ObserverEvent[] = [];
      const never = () => new Promise<string>(() => {});
      const tools = ['a', 'b', 'c'].map((name) => fakeTool(name, never));
      const provider = scriptedModel([{ toolCalls: tools.map((t, i) => ({ id: `c${i}`, name: t.name, arguments: {} })) }, { text: 'done' }]);
      let started!: () => void;
      const allStarted = new Promise<void>((resolve) => (started = resolve));
      const agent = createAgent({
        provider,
        model: 'm',
        tools,
        knobs: { parallelTools },
        observers: [(e) => void (events.push(e), events.filter((x) => x.type === 'tool-call-start').length === (parallelTools ? 3 : 1) && started())],
      });
      const sub = agent.run({ message: 'go' }).subscribe();
      await allStarted;
      sub.unsubscribe();
      const starts = events.filter((e) => e.type === 'tool-call-start').map((e) => e.toolCallId);
      const ends = events.filter((e) => e.type === 'tool-call-end');
      expect(ends.map((e) => e.toolCallId).sort()).toEqual(starts.sort());
      expect(ends.every((e) => e.type === 'tool-call-end' && e.outcome === 'interrupted')).toBe(true);
    });
  }
});

describe('a token-shaped argument key is scrubbed wherever the arguments are rendered', () => {
  const token = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
  for (const args of [{ [token]: 1 }, { nested: { [token]: 2 } }, { list: [{ [token]: 3 }] }, { [token]: token }]) {
    it(`${JSON.stringify(args).slice(0, 30)}…: not in the approval request, the audit log, the tool-call event`, async () => {
      const approval = new ApprovalManager({ alwaysAsk: ['t'] }, { name: 'operator', ask: () => 'yes' });
      const t = fakeTool('t', 'T', { parameters: z.record(z.string(), z.unknown()) });
      const provider = scriptedModel([{ toolCalls: [{ id: 'c0', name: 't', arguments: args }] }, { text: 'done' }]);
      const run = await runTurn(createAgent({ provider, model: 'm', tools: [t], approval }));
      expectHealthyTurn(run);
      const asked = run.events.filter((e) => e.type === 'approval-request');
      expect(asked).toHaveLength(1);
      const rendered = JSON.stringify([asked, approval.auditLog, run.events.filter((e) => e.type === 'tool-call')]);
      expect(leaksOf(rendered, token.slice(4, 20))).toEqual([]);
      expect(rendered).toContain('[REDACTED]');
      expect(t.calls[0].args).toEqual(args); // the tool gets the arguments as the model sent them
      expect(approval.auditLog.map((e) => [e.decision, e.decidedBy, e.byOperator])).toEqual([['yes', 'operator', true]]);
    });
  }
});

describe('a turn whose ingress names no channel parks and resumes', () => {
  const tool = () => fakeTool('write', 'written', { risk: 'write' });
  const agent = (t = tool()) => ({
    t,
    agent: createAgent({
      // the step by the assistant messages so far: a resumed snapshot's history goes on with the script
      provider: scriptedModel((request) => (request.messages.some((m) => m.role === 'assistant') ? { text: 'done' } : { toolCalls: [{ id: 'c0', name: 'write', arguments: {} }] })),
      model: 'm',
      tools: [t],
      approval: new ApprovalManager({ level: 'supervised' }, pauseForApproval()),
    }),
  });
  const ingresses = [{ replyTarget: 'thread-7' }, { agentAlias: 'helper' }, { turnId: 'turn-without-channel' }, {}];

  for (const ingress of ingresses) {
    it(`in one process: ${JSON.stringify(ingress)}`, async () => {
      const { agent: a, t } = agent();
      const parked = (await collect(a.run({ message: 'go', ingress: ingress as never }))).at(-1) as TurnEventOf<'done'>;
      expect(parked.reason).toBe('paused');
      const snapshot = JSON.parse(JSON.stringify(parked.snapshot));
      const resumed = (await collect(a.resume(snapshot, { decisions: { [parked.pending![0].requestId]: 'yes' } }))).at(-1) as TurnEventOf<'done'>;
      expect([resumed.reason, resumed.text, t.calls.length]).toEqual(['final', 'done', 1]);
    });
  }

  it('through a durable store: the decision is accepted and the turn ends done', async () => {
    const { agent: a, t } = agent();
    const durable = durableAgent(a, { store: memoryTurnStore() });
    const parked = (await collect(durable.run({ message: 'go', ingress: { replyTarget: 'thread-7' } as never }))).at(-1) as TurnEventOf<'done'>;
    const turnId = parked.snapshot!.turnId;
    expect(await durable.decide(turnId, parked.pending![0].requestId, 'yes', 'alice')).toMatchObject({ status: 'accepted', ready: true });
    const done = (await collect(durable.continue(turnId))).at(-1) as TurnEventOf<'done'>;
    expect([done.reason, t.calls.length]).toEqual(['final', 1]);
    expect((await durable.store.getTurn(turnId))?.status).toBe('done');
  });
});

describe('text-protocol markup never reaches a text-delta event', () => {
  const wholes = [
    'Let me check. <tool_call>{"name":"t","arguments":{}}</tool_call> One moment.',
    '<think>plan: call t</think>Checking. <TOOL_CALL>{"name":"t","arguments":{}}</TOOL_CALL>',
    'a < b and <tool-call>{"name":"t","arguments":{}}</tool-call>',
  ];
  for (const whole of wholes) {
    for (const size of [1, 3, 7, 1000]) {
      it(`${JSON.stringify(whole.slice(0, 24))}… in chunks of ${size}`, async () => {
        const chunks = whole.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
        const streamed: ProviderEvent[] = [...chunks.map((text) => ({ type: 'text-delta' as const, text })), { type: 'finish', reason: 'stop' }];
        const inner = scriptedModel([streamed, { text: 'done' }]);
        const provider = textProtocolProvider(inner, {});
        const run = await runTurn(createAgent({ provider, model: 'm', tools: [fakeTool('t', 'T')] }));
        const deltas = run.events.filter((e): e is TurnEventOf<'text-delta'> => e.type === 'text-delta' && e.iteration === 1).map((e) => e.text);
        expect(deltas.join('')).not.toMatch(/<\/?(tool[_-]?calls?|think(ing)?)>/i);
        expect(deltas.join('')).toBe(whole.replace(/<(think|tool[_-]call)>[\s\S]*?<\/\1>/gi, ''));
        expect(slotSummary(run.events as TurnEvent[])).toEqual([[0, 't', 'executed', true, 'T']]);
      });
    }
  }
});

describe('an async observer that rejects is logged once per failure, scrubbed, and never an unhandled rejection', () => {
  it('a rejection carrying a token', async () => {
    const logger = recordingLogger();
    const provider = scriptedModel([{ toolCalls: [{ id: 'c0', name: 't', arguments: {} }] }, { text: 'done' }]);
    const secret = 'sk-proj-abcdefghijklmnopqrstuvwx0123456789';
    const observer = async () => {
      throw new Error(`observer failed with ${secret}`);
    };
    const run = await runTurn(createAgent({ provider, model: 'm', tools: [fakeTool('t', 'T')], observers: [observer], logger }));
    expectHealthyTurn(run);
    await new Promise((resolve) => setImmediate(resolve));
    const rejected = logger.warnings.filter((w) => w.msg === 'observer rejected; ignored');
    expect(rejected).toHaveLength(2); // tool-call-start and tool-call-end
    expect(leaksOf(rejected, secret.slice(8))).toEqual([]);
  });
});
