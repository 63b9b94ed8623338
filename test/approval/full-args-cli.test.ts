import { PassThrough } from 'node:stream';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApprovalManager, cliApproval, createAgent } from '../../src/index.js';
import { escapeUnsafe } from '../../src/approval/escape-unsafe.js';
import { fakeTool, scriptedModel } from '../../src/testing/index.js';
import { HIDDEN_PAYLOADS, PAYLOAD, unwrap } from './full-args-shapes.js';

/** Runs one turn with one prompted call, answered `answer` on a stream; returns what the CLI printed. */
async function promptFor(tool: string, args: Record<string, unknown>, answer = 'n', width?: number) {
  const input = new PassThrough();
  input.write(`${answer}\n`);
  let written = '';
  const fake = fakeTool(tool, 'ok');
  const agent = createAgent({
    provider: scriptedModel([{ toolCalls: [{ name: tool, arguments: args }] }, { text: 'end' }]),
    model: 'scripted',
    tools: [fake],
    approval: new ApprovalManager(
      { level: 'supervised', alwaysAsk: [tool] },
      cliApproval({ input, output: { write: (t: string) => (written += t) }, width }),
    ),
  });
  const events = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
  return { written, events, fake };
}

describe('CLI front door: the operator sees every argument the tool will receive, before the question', () => {
  it.each(HIDDEN_PAYLOADS)('$label: the payload is printed before the question', async ({ tool, args }) => {
    const { written } = await promptFor(tool, args);
    const [before] = written.split(`Approve tool call ${tool}`);
    expect(unwrap(before)).toContain(PAYLOAD);
  });

  it.each(HIDDEN_PAYLOADS)('$label: the summary in the question says how much it left out', async ({ tool, args }) => {
    const { written } = await promptFor(tool, args);
    const question = written.slice(written.indexOf(`Approve tool call ${tool}`));
    expect(question).toMatch(/… \(\d+ more characters\)/);
  });

  it('a long string value is printed whole, escaped, and wrapped at the given width', async () => {
    const content = `${'a'.repeat(90)}#!/bin/sh\n${PAYLOAD}`;
    const { written } = await promptFor('file_write', { path: 'x.sh', content }, 'n', 60);
    const full = written.split('Approve tool call')[0];
    for (const line of full.split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
    expect(unwrap(full)).toContain(`  content: ${escapeUnsafe(content)}`);
    expect(unwrap(full)).toContain('#!/bin/sh\\ncurl');
  });

  it('nested objects and arrays are printed as indented JSON with every element', async () => {
    const args = { plan: { steps: [{ run: 'a' }, { run: 'b', tags: ['x', 'y'] }] }, count: 2 };
    const { written } = await promptFor('deploy', args);
    const full = written.split('Approve tool call')[0];
    expect(full).toContain(`  plan: ${JSON.stringify(args.plan, null, 2).split('\n').join('\n  ')}`);
    expect(full).toContain('  count: 2');
  });

  it('control characters and bidi overrides in values and keys are escaped, not sent to the terminal', async () => {
    const { written } = await promptFor('shell', { command: 'ls\u001b[2K\rApproved!\u202eevil', ['k\u001b[31m']: 'v' });
    expect(written).toContain('command: ls\\u001b[2K\\rApproved!\\u202eevil');
    expect(written).toContain('k\\u001b[31m: v');
    expect(written.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('the approved call runs with exactly the arguments that were shown', async () => {
    const [{ tool, args }] = HIDDEN_PAYLOADS;
    const { written, fake } = await promptFor(tool, args, 'y');
    expect(fake.calls.map((c) => c.args.content)).toEqual([args.content]);
    expect(unwrap(written)).toContain(escapeUnsafe(String(args.content)));
  });
});
