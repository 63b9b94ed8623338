import pino from 'pino';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, createAgent, pauseForApproval, type ApprovalAnswerInput, type ApprovalFrontDoor, type TurnEvent, type TurnEventOf } from '../../src/index.js';
import { durableAgent } from '../../src/durable/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { leakedWindows } from '../fixtures/secrets-corpus.js';
import { tokenShapedToolNames } from '../fixtures/token-tool-names.js';
import { scriptedDoor } from '../prep/harness.js';
import { durableBackendsForFile, storeBackends } from './shared-pglite.js';

/** Issue 16, item 4: audit logs and allow-lists keep a token-shaped tool's real name; rendered surfaces scrub it. */

const names = tokenShapedToolNames().slice(0, 4); // a ghp_, an sk-, … (the corpus' first shapes)
const RENDERED = new Set<TurnEvent['type']>(['approval-request', 'approval-decision', 'tool-call', 'tool-result']);

function agentWith(door: ApprovalFrontDoor, logger?: pino.Logger) {
  return createAgent({
    // by the request, not by its place: a resumed turn is a new conversation to a list of steps
    provider: scriptedModel((request) =>
      request.messages.some((m) => m.role === 'tool') ? { text: 'ok' } : { toolCalls: names.map((name, i) => ({ id: `c${i}`, name, arguments: { n: i } })) },
    ),
    model: 'm',
    tools: names.map((name) => fakeTool(name, 'ran')),
    approval: new ApprovalManager({}, door),
    ...(logger ? { logger } : {}),
  });
}

const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const leaks = (surface: string) => names.flatMap((name) => leakedWindows(surface, name));

describe('ApprovalManager keeps the real name of a token-shaped tool', () => {
  it.each<[string, ApprovalAnswerInput]>([
    ['yes', 'yes'],
    ['no', 'no'],
    ['always', 'always'],
    ['a replacement', { replaceWith: 'r' }],
  ])('answered %s: the audit entries name the real tools, the events and log lines do not', async (_, answer) => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (s: string) => void lines.push(s) });
    const agent = agentWith(scriptedDoor(names.map(() => answer)), logger);
    const events = await collect(agent.run({ message: 'go', conversationId: 'c1' }));
    const manager = agent.resolved.approval as ApprovalManager;
    expect(manager.auditLog.map((e) => e.toolName)).toEqual(names);
    expect([...manager.allowListFor('c1')]).toEqual(answer === 'always' ? names : []);
    expect(leaks(JSON.stringify(events.filter((e) => RENDERED.has(e.type))))).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);
    expect(leaks(lines.join('\n'))).toEqual([]);
  });
});

const backends = storeBackends(durableBackendsForFile());

describe.each(backends)('a durable store on %s keeps the real name of a token-shaped tool', (_name, open) => {
  it('a front door that answers at once: audit rows and the allow-list hold the real names; stored events scrub them', async () => {
    const store = await open();
    try {
      const durable = durableAgent(agentWith(scriptedDoor(['always', 'no', 'yes', 'always'], 'ops')), { store });
      await collect(durable.run({ message: 'go', conversationId: 'conv' }));
      const [{ turnId }] = await store.listTurns({ conversationId: 'conv' });
      const audit = await store.auditLog({ turnId });
      expect(audit.map((a) => [a.toolName, a.decision, a.decidedBy, a.conversationId])).toEqual([
        [names[0], 'always', 'ops', 'conv'],
        [names[1], 'no', 'ops', 'conv'],
        [names[2], 'yes', 'ops', 'conv'],
        [names[3], 'always', 'ops', 'conv'],
      ]);
      expect((await store.allowList('conv')).sort()).toEqual([names[0], names[3]].sort());
      const stored = (await store.events(turnId)).map((e) => e.event).filter((e) => RENDERED.has(e.type));
      expect(stored.filter((e) => e.type === 'approval-decision')).toHaveLength(names.length);
      expect(leaks(JSON.stringify(stored))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a parked turn decided and continued: the resumed decision is audited under the real name', async () => {
    const store = await open();
    try {
      const durable = durableAgent(agentWith(pauseForApproval()), { store });
      const first = (await collect(durable.run({ message: 'go', conversationId: 'park' }))).at(-1) as TurnEventOf<'done'>;
      expect(first.reason).toBe('paused');
      const turnId = first.snapshot!.turnId;
      for (const [i] of names.entries()) {
        const [request] = (await store.getTurn(turnId))!.pending;
        expect(await durable.decide(turnId, request.requestId, i % 2 === 0 ? 'always' : 'no', 'alice')).toMatchObject({ status: 'accepted' });
        const events = await collect(durable.continue(turnId));
        expect(leaks(JSON.stringify(events.filter((e) => RENDERED.has(e.type))))).toEqual([]);
      }
      expect((await store.getTurn(turnId))!.status).toBe('done');
      expect((await store.auditLog({ turnId })).map((a) => [a.toolName, a.decision, a.decidedBy])).toEqual(names.map((n, i) => [n, i % 2 === 0 ? 'always' : 'no', 'alice']));
      expect((await store.allowList('park')).sort()).toEqual(names.filter((_, i) => i % 2 === 0).sort());
    } finally {
      await store.close();
    }
  });
});
