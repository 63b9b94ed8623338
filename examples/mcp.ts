/**
 * `npx tsx examples/mcp.ts`: one agent turn against a real MCP server (the test fixture, started
 * as a child process over stdio) with deferred loading, on the scripted model (no network).
 *
 * The model first sees only `tool_search` and a list of the deferred MCP tools. It searches,
 * the matches are activated, and the next iteration offers and runs them over MCP — one by its
 * full name, one by its short `{server}__` suffix. Every tool card is printed as it opens and closes.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { ActivationStore, createAgent, mcpTools, type ProviderRequest, type TurnEvent } from '../src/index.js';
import { scriptedModel, type ScriptedStep } from '../src/testing/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = fileURLToPath(new URL('../test/fixtures/mcp-server.ts', import.meta.url));

/** The scripted model reads its request like a real one: the offered tools and earlier results. */
function script(request: ProviderRequest, n: number): ScriptedStep {
  const offered = (request.tools ?? []).map((t) => t.name);
  process.stdout.write(`\n  (the model is offered: ${offered.join(', ')})`);
  if (n === 0) return { text: 'I need a calculator and an echo; let me find them.', toolCalls: [{ id: 'search', name: 'tool_search', arguments: { query: 'adds echoes', max_results: 2 } }] };
  if (n === 1) {
    return {
      toolCalls: [
        { id: 'sum', name: 'fx__add', arguments: { a: 19, b: 23 } },
        { id: 'echo', name: 'echo', arguments: { text: 'hello over MCP' } },
      ],
    };
  }
  const results = request.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  return { text: `19 + 23 = ${results[1]}, and the server said "${results[2]}".` };
}

function render(event: TurnEvent): void {
  switch (event.type) {
    case 'iteration':
      process.stdout.write(`\n── iteration ${event.iteration} ──`);
      return;
    case 'text-delta':
      process.stdout.write(`\n${event.text}`);
      return;
    case 'tool-call':
      process.stdout.write(`\n  ┌ [${event.slot}] ${event.name} ${JSON.stringify(event.args)}${event.executes ? ' … running' : ' (not run)'}`);
      return;
    case 'tool-result':
      process.stdout.write(`\n  └ [${event.slot}] ${event.name} ${event.success ? '✓' : '✗'} ${event.outcome}: ${event.output.split('\n')[0]}`);
      return;
    case 'done':
      process.stdout.write(`\n\n── done (${event.reason}) after ${event.iterations} iterations ──\n`);
      return;
    default:
      return;
  }
}

const client = new Client({ name: 'rx-tool-loop-example', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', server], cwd: root }));
try {
  const deferredTools = await mcpTools(client, { server: 'fx' });
  const model = scriptedModel(script);
  const activations = new ActivationStore();
  const agent = createAgent({ provider: model, model: 'scripted', tools: [], deferredTools, activated: activations });
  const events = agent.run({ message: 'What is 19 + 23? Then echo a greeting.', conversationId: 'demo' });
  await new Promise<void>((resolve, reject) => events.subscribe({ next: render, error: reject, complete: resolve }));
  const listing = model.requests[0].messages.find((m) => m.role === 'system')?.content ?? '';
  process.stdout.write(`\nThe first request's system message listed the deferred tools:\n${listing}\n`);
  process.stdout.write(`\nActivated in conversation 'demo' (kept for its next turns): ${activations.forConversation('demo')?.names().join(', ')}\n`);
} finally {
  await client.close();
}
