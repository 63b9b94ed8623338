import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApprovalManager, createAgent, defineTool, nonInteractiveApproval, progressLine, progressLines, type TurnEvent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';

const call = (name: string, args: unknown, id = 'c1'): TurnEvent => ({ type: 'tool-call', iteration: 1, slot: 0, id, name, args, executes: true });
const result = (name: string, over: Partial<Extract<TurnEvent, { type: 'tool-result' }>> = {}): TurnEvent => ({
  type: 'tool-result',
  iteration: 1,
  slot: 0,
  id: 'c1',
  name,
  output: 'ok',
  success: true,
  outcome: 'executed',
  durationMs: 12.4,
  ...over,
});

describe('a start line and a completion line per call', () => {
  it('the start line names the tool and previews its arguments', () => {
    expect(progressLine(call('weather', { city: 'Oslo' }))).toBe('⏳ weather {"city":"Oslo"}');
    expect(progressLine(call('clock', {}))).toBe('⏳ clock');
    expect(progressLine(call('weather', { city: 'Oslo' }), { showArguments: false })).toBe('⏳ weather');
  });

  it('a long argument preview is cut to 80 characters', () => {
    const line = progressLine(call('write', { text: 'w'.repeat(500) }))!;
    expect(line.slice('⏳ write '.length)).toHaveLength(80);
    expect(line.endsWith('…')).toBe(true);
  });

  it('a success line gives the rounded duration', () => {
    expect(progressLine(result('weather'))).toBe('✅ weather (12 ms)');
    expect(progressLine(result('weather', { outcome: 'replaced' }))).toBe('✅ weather (replaced by the operator)');
  });

  it('other events have no line', () => {
    expect(progressLine({ type: 'iteration', iteration: 1 })).toBeUndefined();
    expect(progressLine({ type: 'text-delta', iteration: 1, text: 'hi' })).toBeUndefined();
  });
});

describe('failures carry their scrubbed reason, cut to 200 characters', () => {
  it('the reason is the result text without its Error: prefix, labelled by outcome', () => {
    expect(progressLine(result('deploy', { success: false, outcome: 'failed', output: 'Error: disk full' }))).toBe('❌ deploy failed: disk full');
    expect(progressLine(result('rm', { success: false, outcome: 'denied', output: 'Denied by user.' }))).toBe('❌ rm denied: Denied by user.');
    expect(progressLine(result('x', { success: false, outcome: 'unknown', output: 'Unknown tool: x' }))).toBe('❌ x unknown tool: Unknown tool: x');
  });

  it('secrets in the reason are scrubbed before it is cut (a cut key would no longer look like one)', () => {
    const key = `sk-${'Q'.repeat(40)}`;
    // the key starts at character 186 of the reason: cutting first would leave `sk-QQQQQQQQQQ…`
    const line = progressLine(result('call', { success: false, outcome: 'failed', output: `Error: ${'.'.repeat(181)} key ${key}` }))!;
    expect(line).toBe(`❌ call failed: ${'.'.repeat(181)} key [REDACTED]`);
  });

  it('a long reason is cut to 200 characters', () => {
    const line = progressLine(result('call', { success: false, outcome: 'failed', output: `Error: ${'x'.repeat(500)}` }))!;
    expect(line.slice('❌ call failed: '.length)).toBe(`${'x'.repeat(199)}…`);
  });

  it('a multi-line reason becomes one line', () => {
    expect(progressLine(result('t', { success: false, outcome: 'failed', output: 'Error: line one\n  line two' }))).toBe('❌ t failed: line one line two');
  });
});

describe('progressLines turns a turn into chat lines', () => {
  it('one start and one completion line per call of a real turn, in the order they happen', async () => {
    const ok = defineTool({ name: 'ok', description: 'ok', parameters: z.object({}), execute: () => 'fine' });
    const bad = defineTool({ name: 'bad', description: 'bad', parameters: z.object({}), execute: () => Promise.reject(new Error('password=supersecret1 rejected')) });
    const agent = createAgent({
      provider: scriptedModel([{ toolCalls: [{ name: 'ok', arguments: {} }, { name: 'bad', arguments: {} }] }, { text: 'done' }]),
      model: 'm',
      tools: [ok, bad],
      clock: { now: () => 0 },
    });
    const lines = await lastValueFrom(agent.run({ message: 'go' }).pipe(progressLines(), toArray()));
    expect(lines).toEqual(['⏳ ok', '✅ ok (0 ms)', '⏳ bad', '❌ bad failed: Error executing bad: password=[REDACTED] rejected']);
  });

  it('a call that never runs (denied, unknown) has no start line, only its completion line naming why', async () => {
    const ok = defineTool({ name: 'ok', description: 'ok', parameters: z.object({}), execute: () => 'fine' });
    const file_delete = defineTool({ name: 'file_delete', description: 'deletes', parameters: z.object({ path: z.string() }), risk: 'write', execute: () => 'gone' });
    const agent = createAgent({
      provider: scriptedModel([
        { toolCalls: [{ name: 'ok', arguments: {} }, { name: 'file_delete', arguments: { path: 'a.txt' } }, { name: 'nope', arguments: {} }] },
        { text: 'done' },
      ]),
      model: 'm',
      tools: [ok, file_delete],
      approval: new ApprovalManager({ autoApprove: ['ok'] }, nonInteractiveApproval()),
      clock: { now: () => 0 },
    });
    const events = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
    const calls = events.filter((e) => e.type === 'tool-call').map((e) => [e.name, e.executes]);
    expect(calls).toEqual([
      ['ok', true],
      ['file_delete', false],
      ['nope', false],
    ]);
    const lines = events.map((e) => progressLine(e)).filter((l) => l !== undefined);
    expect(lines.filter((l) => l.includes('file_delete'))).toEqual([expect.stringMatching(/^❌ file_delete denied/)]);
    expect(lines.filter((l) => l.includes('nope'))).toEqual([expect.stringMatching(/^❌ nope unknown tool/)]);
    expect(lines.filter((l) => l.includes(' ok'))).toEqual(['⏳ ok', '✅ ok (0 ms)']);
  });

  it('the start line of a slot decided by preparation is withheld', () => {
    expect(progressLine({ type: 'tool-call', iteration: 1, slot: 0, id: 'c1', name: 'file_delete', args: {}, executes: false })).toBeUndefined();
  });

  it('works on any event source', async () => {
    const lines = await lastValueFrom(from([call('a', {}), result('a')]).pipe(progressLines(), toArray()));
    expect(lines).toEqual(['⏳ a', '✅ a (12 ms)']);
  });
});
