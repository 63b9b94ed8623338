import pino from 'pino';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createAgent, DEFAULT_KNOBS, type ObserverEvent, type TurnEvent } from '../../src/index.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';

const HUGE = 200_000;
const max = DEFAULT_KNOBS.maxToolResultChars;

function run(knobs = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug', base: undefined, timestamp: false }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  const observed: ObserverEvent[] = [];
  const write = fakeTool('write', 'written');
  const agent = createAgent({
    provider: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'write', arguments: { path: 'a.txt', content: 'x'.repeat(HUGE) } }] }, { text: 'done' }]),
    model: 'm',
    tools: [write],
    observers: [(e) => void observed.push(e)],
    logger,
    knobs,
  });
  return { write, lines, observed, events: lastValueFrom(agent.run({ message: 'go' }).pipe(toArray())) };
}

describe('tool arguments on events, observer events and logs are bounded like results; the tool gets them whole', () => {
  it('a 200,000-character argument is cut to maxToolResultChars on the tool-call event, both observer events and the log line', async () => {
    const { write, lines, observed, events } = run();
    const call = (await events).find((e): e is Extract<TurnEvent, { type: 'tool-call' }> => e.type === 'tool-call')!;
    const shown = call.args as { path: string; content: string };
    expect(shown.path).toBe('a.txt');
    expect(shown.content.length).toBeLessThanOrEqual(max + 100);
    expect(shown.content).toMatch(/characters truncated/);
    for (const e of observed) expect(JSON.stringify(e.arguments).length).toBeLessThan(max + 200);
    expect(observed.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end']);
    const logged = lines.find((l) => l.msg === 'tool call')!;
    expect(JSON.stringify(logged.args).length).toBeLessThan(max + 200);
    expect((write.calls[0].args as { content: string }).content).toHaveLength(HUGE);
  });

  it('many mid-sized arguments together are bounded too (their JSON text, cut)', async () => {
    const args = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'y'.repeat(5_000)]));
    const tool = fakeTool('many', 'ok');
    const agent = createAgent({ provider: scriptedModel([{ toolCalls: [{ name: 'many', arguments: args }] }, { text: 'done' }]), model: 'm', tools: [tool] });
    const events = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
    const call = events.find((e) => e.type === 'tool-call')!;
    expect(JSON.stringify(call.args).length).toBeLessThan(max + 200);
    expect(Object.keys(tool.calls[0].args)).toHaveLength(50);
  });

  it('maxToolResultChars: 0 leaves arguments unbounded, as it does results', async () => {
    const { events } = run({ maxToolResultChars: 0 });
    const call = (await events).find((e) => e.type === 'tool-call')!;
    expect((call.args as { content: string }).content).toHaveLength(HUGE);
  });
});
