import { Observable, delay, of, takeWhile } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ModelProvider, type ProviderEvent, type TurnEvent } from '../../src/index.js';

/**
 * When a request or a tool is aborted, relative to its teardown: a provider or tool that stops
 * listening in its teardown must still see the abort, and one that already answered must never
 * see it.
 */

/** A provider whose stream never ends; it logs what its abort listener and its teardown see. */
function listeningProvider(log: string[]): ModelProvider {
  return {
    name: 'listening',
    nativeTools: true,
    request: (_req, signal) =>
      new Observable<ProviderEvent>((subscriber) => {
        const onAbort = () => log.push('abort seen');
        signal.addEventListener('abort', onAbort);
        subscriber.next({ type: 'text-delta', text: 'thinking' });
        return () => {
          log.push(`teardown (aborted: ${signal.aborted})`);
          signal.removeEventListener('abort', onAbort);
        };
      }),
  };
}

/** A provider that answers asynchronously and keeps the signals it was given. */
function answeringProvider(signals: AbortSignal[], events: ProviderEvent[]): ModelProvider {
  return {
    name: 'answering',
    nativeTools: true,
    request: (_req, signal) => (signals.push(signal), of(...events).pipe(delay(1))),
  };
}

const until = (type: TurnEvent['type']) => takeWhile((e: TurnEvent) => e.type !== type, true);

describe('a provider sees its abort before its stream is torn down', () => {
  it('on the turn signal: the abort, then the teardown; the turn ends cancelled', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const agent = createAgent({ provider: listeningProvider(log), model: 'm', tools: [] });
    const events: TurnEvent[] = [];
    const ended = new Promise<void>((resolve) =>
      agent.run({ message: 'hi', signal: controller.signal }).subscribe({
        next: (e) => {
          events.push(e);
          if (e.type === 'text-delta') controller.abort();
        },
        complete: resolve,
      }),
    );
    await ended;
    expect(log).toEqual(['abort seen', 'teardown (aborted: true)']);
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'cancelled' });
  });

  it('on unsubscribing: the abort, then the teardown', () => {
    const log: string[] = [];
    const agent = createAgent({ provider: listeningProvider(log), model: 'm', tools: [] });
    const sub = agent.run({ message: 'hi' }).subscribe();
    expect(log).toEqual([]);
    sub.unsubscribe();
    expect(log).toEqual(['abort seen', 'teardown (aborted: true)']);
  });

  it('a response that arrived whole is never aborted, even when the consumer leaves from its last events', async () => {
    const signals: AbortSignal[] = [];
    const provider = answeringProvider(signals, [
      { type: 'text-delta', text: 'done' },
      { type: 'finish', reason: 'stop', responseId: 'r1' },
    ]);
    const agent = createAgent({ provider, model: 'm', tools: [] });
    const seen: TurnEvent[] = [];
    await new Promise<void>((resolve) => agent.run({ message: 'hi' }).pipe(until('response')).subscribe({ next: (e) => seen.push(e), complete: resolve }));
    expect(seen.at(-1)).toMatchObject({ type: 'response', responseId: 'r1' });
    expect(signals).toHaveLength(1);
    expect(signals[0].aborted).toBe(false);
  });
});

describe('a tool that answered keeps its signal un-aborted, whoever leaves from its events', () => {
  for (const how of ['cancels the turn', 'unsubscribes'] as const) {
    it(`the consumer ${how} from the tool-result event of an async tool`, async () => {
      const signals: AbortSignal[] = [];
      const tool = defineTool({
        name: 'echo',
        description: 'Echoes.',
        parameters: z.object({ text: z.string() }),
        execute: async ({ text }, ctx) => (signals.push(ctx.signal), text),
      });
      const provider = answeringProvider([], [{ type: 'tool-call', id: 'c1', name: 'echo', arguments: '{"text":"a"}' }]);
      const agent = createAgent({ provider, model: 'm', tools: [tool] });
      const controller = new AbortController();
      const seen: TurnEvent[] = [];
      const stream = agent.run({ message: 'go', signal: controller.signal });
      await new Promise<void>((resolve) => {
        const sub = (how === 'unsubscribes' ? stream.pipe(until('tool-result')) : stream).subscribe({
          next: (e) => {
            seen.push(e);
            if (e.type === 'tool-result' && how === 'cancels the turn') controller.abort();
          },
          complete: resolve,
        });
        if (sub.closed) resolve();
      });
      expect(seen.find((e) => e.type === 'tool-result')).toMatchObject({ outcome: 'executed', output: 'a' });
      expect(signals).toHaveLength(1);
      expect(signals[0].aborted).toBe(false);
    });
  }
});
