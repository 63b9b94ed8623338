import { generateText, MockLanguageModel, mockName, stepCountIs, tool } from './ai-peer.js';
import { argsSchema, cancelledTurnCalls, FINAL_TEXT, noop, scriptedCalls, TOOL_DESCRIPTION, TOOL_NAME, type PreparedSystem, type ScriptedCall, type System } from '../workload.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModel['doGenerate']>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

const textResult: GenerateResult = {
  content: [{ type: 'text', text: FINAL_TEXT }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
};

function callsResult(calls: readonly ScriptedCall[]): GenerateResult {
  return {
    content: calls.map((call) => ({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** A mock model that asks for the batch until the last prompt message is a tool result. */
function mockModel(calls: readonly ScriptedCall[]): MockLanguageModel {
  const batch = callsResult(calls);
  const model: MockLanguageModel = new MockLanguageModel({
    doGenerate: async (options) => {
      // The mock records every call; forget them so a long run does not measure the mock's log.
      model.doGenerateCalls.length = 0;
      return options.prompt[options.prompt.length - 1]?.role === 'tool' ? textResult : batch;
    },
  });
  return model;
}

const tools = {
  [TOOL_NAME]: tool({ description: TOOL_DESCRIPTION, inputSchema: argsSchema, execute: (input) => noop(input) }),
};

/**
 * Vercel AI SDK: `generateText` with `MockLanguageModelV3` from `ai/test` (`MockLanguageModelV4`
 * in ai 7), two steps (the batch, then text). Tool calls of a step run concurrently (no cap),
 * inputs are validated by the zod schema; observers: experimental_onToolCallStart /
 * experimental_onToolCallFinish (in ai 7, deprecated aliases of onToolExecutionStart / End).
 */
export const vercelAi: System = {
  name: 'vercel-ai',
  note: `generateText + ${mockName}, stopWhen stepCountIs(2), onToolCallStart/Finish observers`,
  prepare(n): PreparedSystem {
    const model = mockModel(scriptedCalls(n));
    let observed = 0;
    const observe = () => {
      observed++;
    };
    return {
      async turn() {
        const result = await generateText({
          model,
          tools,
          prompt: 'go',
          stopWhen: stepCountIs(2),
          experimental_onToolCallStart: observe,
          experimental_onToolCallFinish: observe,
        });
        if (result.text !== FINAL_TEXT) throw new Error(`vercel-ai: unexpected answer ${JSON.stringify(result.text)}`);
      },
    };
  },
  async cancelledTurn() {
    const controller = new AbortController();
    const calls = cancelledTurnCalls();
    const wait = tool({
      description: 'Waits until cancelled.',
      inputSchema: argsSchema,
      execute: (input, { abortSignal }) =>
        new Promise<string>((resolve) => {
          if (input.i === 1) setImmediate(() => controller.abort());
          (abortSignal ?? controller.signal).addEventListener('abort', () => resolve('aborted'), { once: true });
        }),
    });
    try {
      await generateText({
        model: mockModel(calls),
        tools: { ...tools, wait },
        prompt: 'go',
        stopWhen: stepCountIs(2),
        abortSignal: controller.signal,
      });
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
  },
};
