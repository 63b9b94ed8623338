import type * as AgentsCore from '@openai/agents-core';
import type { Model, ModelRequest, ModelResponse } from '@openai/agents-core';
import { importPeer } from '../peers.js';
import { argsSchema, cancelledTurnCalls, FINAL_TEXT, noop, scriptedCalls, TOOL_DESCRIPTION, TOOL_NAME, type PreparedSystem, type ScriptedCall, type System } from '../workload.js';

// agents-core 0.14 (pinned) or 0.20 (next, bench/src/peers.ts): what this file uses is the same in both.
const { Agent, Runner, tool, Usage } = await importPeer<typeof AgentsCore>('@openai/agents-core');

/** A fake Model: the batch of function calls until the input ends with a tool result, then a message. */
class FakeModel implements Model {
  readonly #batch: ModelResponse['output'];
  constructor(calls: readonly ScriptedCall[]) {
    this.#batch = calls.map((call) => ({
      type: 'function_call' as const,
      callId: call.id,
      name: call.name,
      arguments: call.arguments,
      status: 'completed' as const,
    }));
  }
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = request.input;
    const last = Array.isArray(input) ? input[input.length - 1] : undefined;
    if (last?.type === 'function_call_result') {
      return {
        usage: new Usage(),
        output: [
          { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: FINAL_TEXT }] },
        ],
      };
    }
    return { usage: new Usage(), output: this.#batch };
  }
  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('FakeModel does not stream');
  }
}

const noopTool = tool({ name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: argsSchema, execute: (input) => noop(input) });

/**
 * OpenAI Agents JS (agents-core): `Runner.run` with a fake Model; function tools of a turn run
 * concurrently (no `maxFunctionToolConcurrency` cap); arguments are validated by the zod schema;
 * observers: the runner's `agent_tool_start` / `agent_tool_end` hooks. Tracing is disabled (it
 * would otherwise try to export spans to OpenAI).
 */
export const openaiAgents: System = {
  name: 'openai-agents',
  note: 'Runner.run + fake Model, tracing disabled, agent_tool_start/end observers',
  prepare(n): PreparedSystem {
    const agent = new Agent({ name: 'bench', instructions: 'Call tools.', model: new FakeModel(scriptedCalls(n)), tools: [noopTool] });
    const runner = new Runner({ tracingDisabled: true });
    let observed = 0;
    const observe = () => {
      observed++;
    };
    runner.on('agent_tool_start', observe);
    runner.on('agent_tool_end', observe);
    return {
      async turn() {
        const result = await runner.run(agent, 'go');
        if (result.finalOutput !== FINAL_TEXT) throw new Error(`openai-agents: unexpected answer ${JSON.stringify(result.finalOutput)}`);
      },
    };
  },
  async cancelledTurn() {
    const controller = new AbortController();
    const calls = cancelledTurnCalls();
    const wait = tool({
      name: 'wait',
      description: 'Waits until cancelled.',
      parameters: argsSchema,
      execute: (input, _context, details) =>
        new Promise<string>((resolve) => {
          if (input.i === 1) setImmediate(() => controller.abort());
          (details?.signal ?? controller.signal).addEventListener('abort', () => resolve('aborted'), { once: true });
        }),
    });
    const agent = new Agent({ name: 'bench', instructions: 'Call tools.', model: new FakeModel(calls), tools: [noopTool, wait] });
    try {
      await new Runner({ tracingDisabled: true }).run(agent, 'go', { signal: controller.signal });
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
  },
};
