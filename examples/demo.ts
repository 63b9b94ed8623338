/**
 * `npm run demo`: one whole agent turn on the embedded scripted model (no network).
 * Three real tools — a calculator, a file reader for this repository and a clock — run in
 * parallel; one call fails (a mistyped file name) and the model recovers; a risky tool asks
 * for approval (on a terminal it asks you; without one, as in CI, policy denies it); every tool
 * card is printed as it opens and as it closes, then the final answer streams out.
 *
 * With OPENAI_BASE_URL / OPENAI_API_KEY / RTL_MODEL set, the same turn runs against that
 * OpenAI-compatible server instead (OpenAI, Ollama, vLLM, LM Studio).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProviderEvent, ProviderRequest, TurnEvent } from '../src/index.js';
import { ApprovalManager, cliApproval, createAgent, nonInteractiveApproval } from '../src/index.js';
import { scriptedModel, type ScriptedResponse } from '../src/testing/index.js';
import { providerFromEnv } from './provider-from-env.js';
import { calculator } from './tools/calculator.js';
import { clock } from './tools/clock.js';
import { fileDelete } from './tools/file-delete.js';
import { fileRead } from './tools/file-read.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const question =
  'How many lines does our package.json have, what is 17.5% of 2,340, and what time is it in Tokyo? ' +
  'Then delete the scratch file notes.txt.';

/** The scripted model: it reads the tool results in its request, like a real model would. */
function script(request: ProviderRequest, n: number): ScriptedResponse {
  const results = request.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  if (n === 0) {
    return {
      text: 'Let me check all three at once.',
      toolCalls: [
        { id: 'call_file', name: 'file_read', arguments: { path: 'package.jsonn' } },
        { id: 'call_calc', name: 'calculator', arguments: { expression: '2340 * 0.175' } },
        { id: 'call_time', name: 'clock', arguments: { timeZone: 'Asia/Tokyo' } },
      ],
    };
  }
  if (n === 1) {
    return {
      text: 'The file name had a typo; reading package.json instead.',
      toolCalls: [
        { id: 'call_file2', name: 'file_read', arguments: { path: 'package.json', maxLines: 1 } },
        { id: 'call_delete', name: 'file_delete', arguments: { path: 'notes.txt' } },
      ],
    };
  }
  const deletion = results.at(-1) ?? '';
  const lines = results.find((r) => r.startsWith('package.json:'))?.split('\n')[0].replace('package.json: ', '') ?? 'an unknown number of lines';
  const answer =
    `package.json has ${lines}. 17.5% of 2,340 is ${results[1]}. ` +
    `In Tokyo it is ${results[2]?.replace(/ \(Asia\/Tokyo\)$/, '')}. ` +
    (deletion.startsWith('deleted')
      ? 'I deleted notes.txt as you asked.'
      : 'I did not delete notes.txt: that needs an operator\'s approval, and it was not given.');
  return streamWords(answer);
}

/** Streams a final answer a few words at a time, as a real model's deltas arrive. */
function streamWords(text: string): ProviderEvent[] {
  const words = text.match(/\S+\s*/g) ?? [];
  return [...words.map((w): ProviderEvent => ({ type: 'text-delta', text: w })), { type: 'finish', reason: 'stop' }];
}

const preview = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 70 ? `${line.slice(0, 69)}…` : line;
};

function render(event: TurnEvent): void {
  switch (event.type) {
    case 'iteration':
      process.stdout.write(`\n── iteration ${event.iteration} ──\n`);
      return;
    case 'text-delta':
      process.stdout.write(event.text);
      return;
    case 'tool-call':
      process.stdout.write(`\n  ┌ [${event.slot}] ${event.name} ${JSON.stringify(event.args)}${event.executes ? ' … running' : ' (not run)'}`);
      return;
    case 'tool-result': {
      const mark = event.success ? '✓' : '✗';
      process.stdout.write(
        `\n  └ [${event.slot}] ${event.name} ${mark} ${event.outcome} in ${event.durationMs} ms: ${preview(event.output)}`,
      );
      return;
    }
    case 'approval-request':
      process.stdout.write(`\n  ? approval needed: ${event.toolName} (${event.argumentsSummary})`);
      return;
    case 'approval-decision':
      process.stdout.write(`\n  ! ${event.toolName}: ${event.decision}, decided by ${event.decidedBy}`);
      return;
    case 'done':
      process.stdout.write(`\n\n── done (${event.reason}) after ${event.iterations} iterations, ${event.history.length} history messages ──\n`);
      return;
    default:
      return;
  }
}

async function main(): Promise<void> {
  const sandbox = await mkdtemp(join(tmpdir(), 'rtl-demo-'));
  await writeFile(join(sandbox, 'notes.txt'), 'scratch\n');
  const real = providerFromEnv();
  // On a terminal the operator is asked; without one (CI, pipes) nobody can answer, so policy denies.
  const onTerminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
  // calculator, file_read and clock declare risk 'read' and run without a prompt; file_delete ('write') asks.
  const approval = new ApprovalManager(
    { level: 'supervised', alwaysAsk: ['file_delete'] },
    onTerminal ? cliApproval() : nonInteractiveApproval(),
  );
  const agent = createAgent({
    name: 'demo',
    ...(real ?? { provider: scriptedModel(script), model: 'scripted-demo' }),
    tools: [calculator, fileRead(root), clock, fileDelete(sandbox)],
    approval,
    knobs: { parallelTools: true },
  });
  process.stdout.write(`model: ${real?.description ?? 'embedded scripted model (no network)'}\n`);
  process.stdout.write(`approval: ${onTerminal ? 'asks on this terminal' : 'non-interactive (no terminal): policy denies risky calls'}\n`);
  process.stdout.write(`user: ${question}\n`);
  try {
    await new Promise<void>((resolve, reject) => {
      agent.run({ message: question }).subscribe({ next: render, error: reject, complete: resolve });
    });
  } finally {
    await rm(sandbox, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
