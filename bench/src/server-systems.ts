import { Observable } from 'rxjs';
import type { ModelProvider, ProviderEvent } from '../../src/index.js';
import { aiMajor, generateText, MockLanguageModel, mockName, stepCountIs, tool } from './systems/ai-peer.js';
import type { OursLib } from './systems/ours.js';
import { argsSchema } from './workload.js';
import {
  ITERATIONS,
  MODEL_MS,
  serverCalls,
  SERVER_FINAL,
  sleep,
  timedTool,
  type IterationClock,
  type ServerPrepared,
  type ServerSystem,
} from './server-workload.js';

/** Which iteration a request is for: the tool results it carries, 3 per iteration. */
const iterationOf = (messages: readonly { role: string }[]): number => {
  let tools = 0;
  for (const m of messages) if (m.role === 'tool') tools++;
  return Math.floor(tools / 3);
};

/** floor + zod: a hand-written loop (JSON.parse + zod per call, Promise.all, one history). */
export const serverFloor: ServerSystem = {
  name: 'floor + zod',
  note: 'hand-written loop: model timer, JSON.parse + zod safeParse per call, Promise.all over the tools, history pushes',
  prepare(): ServerPrepared {
    const batches = Array.from({ length: ITERATIONS }, (_, k) => serverCalls(k));
    return {
      conversation(_id, clock) {
        const runCall = async (raw: string): Promise<string> => {
          const parsed = argsSchema.safeParse(JSON.parse(raw));
          if (!parsed.success) return `Error: ${parsed.error.message}`;
          return timedTool(parsed.data.i, clock);
        };
        return {
          async turn() {
            const history: unknown[] = [{ role: 'user', content: 'go' }];
            for (let k = 0; ; k++) {
              clock.requested();
              await sleep(MODEL_MS);
              clock.answered();
              if (k >= ITERATIONS) {
                history.push({ role: 'assistant', content: SERVER_FINAL });
                break;
              }
              const calls = batches[k];
              history.push({ role: 'assistant', content: null, tool_calls: calls });
              const results = await Promise.all(calls.map((c) => runCall(c.arguments)));
              for (let j = 0; j < calls.length; j++) history.push({ role: 'tool', tool_call_id: calls[j].id, content: results[j] });
            }
            clock.turnEnded();
          },
        };
      },
    };
  },
};

/** ours: `createAgent` per turn (tools defined once), `agent.complete`, parallel tools, defaults otherwise. */
export function serverOurs(loaded: OursLib, name = 'ours'): ServerSystem {
  const { createAgent, defineTool } = loaded.lib;
  const { stepEvents } = loaded.testing;
  return {
    name,
    note: 'createAgent per turn (tools defined once), agent.complete, parallelTools (default cap 8), default guards, ids and clock',
    prepare(): ServerPrepared {
      const clocks = new Map<string, IterationClock>();
      const tools = [
        defineTool({
          name: 'noop',
          description: 'Waits 0-1 ms and says ok.',
          parameters: argsSchema,
          execute: (args, ctx) => timedTool(args.i, clocks.get(ctx.conversationId ?? '')),
        }),
      ];
      const steps = [...Array.from({ length: ITERATIONS }, (_, k) => stepEvents({ toolCalls: serverCalls(k) })), stepEvents({ text: SERVER_FINAL })];
      return {
        conversation(id, clock) {
          clocks.set(id, clock);
          const provider: ModelProvider = {
            name: 'bench-server',
            nativeTools: true,
            ignoresSignal: true, // the timer is cleared on unsubscribe: no AbortController per request
            request: (req) =>
              new Observable<ProviderEvent>((subscriber) => {
                clock.requested();
                const events = steps[Math.min(iterationOf(req.messages), ITERATIONS)];
                let inner: { unsubscribe(): void } | undefined;
                const timer = setTimeout(() => {
                  clock.answered();
                  inner = events.subscribe(subscriber);
                }, MODEL_MS);
                return () => {
                  clearTimeout(timer);
                  inner?.unsubscribe();
                };
              }),
          };
          return {
            async turn() {
              const agent = createAgent({ provider, model: 'bench', tools, knobs: { parallelTools: true } });
              const outcome = await agent.complete({ message: 'go', conversationId: id });
              clock.turnEnded();
              if (outcome.text !== SERVER_FINAL) throw new Error(`ours: unexpected answer ${JSON.stringify(outcome.text)}`);
            },
          };
        },
      };
    },
  };
}

type GenerateResult = Awaited<ReturnType<MockLanguageModel['doGenerate']>>;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/**
 * Vercel AI SDK: `generateText` with a mock model behind the same timer, tools defined once. The
 * clock reaches the tool as its context: `experimental_context` in ai 6, `toolsContext` (per tool
 * name, read as `options.context`) in ai 7, which dropped `experimental_context`.
 */
export const serverVercel: ServerSystem = {
  name: 'vercel-ai',
  note: `generateText + ${mockName} (2 ms timer), stopWhen stepCountIs(4), tools defined once`,
  prepare(): ServerPrepared {
    const results: GenerateResult[] = Array.from({ length: ITERATIONS }, (_, k) => ({
      content: serverCalls(k).map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.arguments })),
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      usage,
      warnings: [],
    }));
    results.push({ content: [{ type: 'text', text: SERVER_FINAL }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });
    const tools = {
      noop: tool({
        description: 'Waits 0-1 ms and says ok.',
        inputSchema: argsSchema,
        execute: (input, options) =>
          timedTool(input.i, (aiMajor >= 7 ? (options as { context?: unknown }).context : options.experimental_context) as IterationClock),
      }),
    };
    return {
      conversation(_id, clock) {
        const model: MockLanguageModel = new MockLanguageModel({
          doGenerate: async (options) => {
            model.doGenerateCalls.length = 0; // the mock's log would grow for the whole run
            clock.requested();
            await sleep(MODEL_MS);
            clock.answered();
            // one tool message per step, holding the step's results
            let k = 0;
            for (const m of options.prompt) if (m.role === 'tool') k++;
            return results[Math.min(k, ITERATIONS)];
          },
        });
        const context = aiMajor >= 7 ? ({ toolsContext: { noop: clock } } as object) : { experimental_context: clock };
        return {
          async turn() {
            const result = await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(ITERATIONS + 1), ...context });
            clock.turnEnded();
            if (result.text !== SERVER_FINAL) throw new Error(`vercel-ai: unexpected answer ${JSON.stringify(result.text)}`);
          },
        };
      },
    };
  },
};
