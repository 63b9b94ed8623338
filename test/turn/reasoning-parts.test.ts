import { from, lastValueFrom, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ApprovalManager,
  ProviderError,
  createAgent,
  pauseForApproval,
  type ChatMessage,
  type ModelProvider,
  type ProviderEvent,
  type ProviderRequest,
  type TurnEvent,
  type TurnEventOf,
} from '../../src/index.js';
import { fakeTool } from '../../src/testing/index.js';

const thinking = { provider: 'anthropic', data: { type: 'thinking', thinking: 'first the file', signature: 'sig-1' } };
const redacted = { provider: 'anthropic', data: { type: 'redacted_thinking', data: 'opaque' } };

/** A provider answering by the number of assistant messages so far, recording each request. */
function scripted(steps: readonly (readonly ProviderEvent[])[], requests: ProviderRequest[] = []): ModelProvider {
  return {
    name: 'scripted',
    nativeTools: true,
    request: (req): Observable<ProviderEvent> => {
      requests.push(req);
      return from(steps[req.messages.filter((m) => m.role === 'assistant').length]);
    },
  };
}

const calls = (...names: string[]): ProviderEvent[] => names.map((name, i) => ({ type: 'tool-call', id: `c${i}`, name, arguments: {} }));
const finish: ProviderEvent = { type: 'finish', reason: 'stop' };
const events = (run$: Observable<TurnEvent>) => lastValueFrom(run$.pipe(toArray()));
const doneOf = (all: TurnEvent[]) => all.at(-1) as TurnEventOf<'done'>;

describe('reasoning parts and failed results travel in history', () => {
  it('the reasoning a response streamed stays on its assistant message, in order, and goes back with the next request; a failed slot\'s message says isError', async () => {
    const requests: ProviderRequest[] = [];
    const provider = scripted(
      [
        [{ type: 'reasoning', part: thinking }, { type: 'reasoning', part: redacted }, ...calls('good', 'bad'), finish],
        [{ type: 'reasoning', part: thinking }, { type: 'text-delta', text: 'done' }, finish],
      ],
      requests,
    );
    const agent = createAgent({ provider, model: 'm', tools: [fakeTool('good', 'fine'), fakeTool('bad', { success: false, output: '', error: 'broken' })] });
    const done = doneOf(await events(agent.run({ message: 'go' })));
    const [, assistant, good, bad, answer] = done.history;
    expect(assistant).toMatchObject({ role: 'assistant', reasoning: [thinking, redacted] });
    expect(good).toEqual({ role: 'tool', tool_call_id: 'c0', content: 'fine' });
    expect(bad).toMatchObject({ role: 'tool', tool_call_id: 'c1', isError: true });
    expect(answer).toEqual({ role: 'assistant', content: 'done', reasoning: [thinking] });
    expect(requests[1].messages.slice(1, 4)).toEqual(done.history.slice(1, 4));
  });

  it('a provider that sends none leaves no reasoning key and no isError on successes', async () => {
    const agent = createAgent({ provider: scripted([[...calls('good'), finish], [{ type: 'text-delta', text: 'ok' }, finish]]), model: 'm', tools: [fakeTool('good', 'fine')] });
    const done = doneOf(await events(agent.run({ message: 'go' })));
    expect(done.history.some((m) => 'reasoning' in m || 'isError' in m)).toBe(false);
  });

  it('a turn parked at an approval keeps the round\'s reasoning in its snapshot and resumes (in JSON) with it', async () => {
    const build = () =>
      createAgent({
        provider: scripted([[{ type: 'reasoning', part: thinking }, ...calls('write'), finish], [{ type: 'text-delta', text: 'ok' }, finish]]),
        model: 'm',
        tools: [fakeTool('write', 'wrote')],
        approval: new ApprovalManager({ level: 'supervised', autoApprove: [], alwaysAsk: [] }, pauseForApproval()),
      });
    const parked = await build().complete({ message: 'go' });
    expect(parked.reason).toBe('paused');
    expect(parked.snapshot!.batch!.reasoning).toEqual([thinking]);
    const stored = JSON.parse(JSON.stringify(parked.snapshot));
    const done = doneOf(await events(build().resume(stored, { decisions: { [parked.pending![0].requestId]: 'yes' } })));
    expect(done.reason).toBe('final');
    expect(done.history.find((m): m is Extract<ChatMessage, { role: 'assistant' }> => m.role === 'assistant' && m.tool_calls !== undefined)?.reasoning).toEqual([thinking]);
  });
});

describe('a provider that breaks the contract of the new events fails typed', () => {
  const shapes: [string, unknown][] = [
    ['a delta with a negative index', { type: 'tool-call-delta', index: -1, argumentsDelta: '{' }],
    ['a delta with a fractional index', { type: 'tool-call-delta', index: 0.5, argumentsDelta: '{' }],
    ['a delta with a huge index', { type: 'tool-call-delta', index: 1e9, argumentsDelta: '{' }],
    ['a delta whose text is a number', { type: 'tool-call-delta', index: 0, argumentsDelta: 7 }],
    ['a reasoning event without a part', { type: 'reasoning' }],
    ['a reasoning part whose data is null', { type: 'reasoning', part: { provider: 'x', data: null } }],
    ['a reasoning part without a provider', { type: 'reasoning', part: { data: {} } }],
  ];
  for (const [name, event] of shapes) {
    it(name, async () => {
      const agent = createAgent({ provider: scripted([[event as ProviderEvent, finish]]), model: 'm', tools: [] });
      await expect(events(agent.run({ message: 'go' }))).rejects.toBeInstanceOf(ProviderError);
    });
  }
});
