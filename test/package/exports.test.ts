import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

/** Loads the built package in a fresh Node process, exactly as a user's code would. */
async function load(script: string, type: 'module' | 'commonjs'): Promise<unknown> {
  const { stdout } = await run(process.execPath, [`--input-type=${type}`, '-e', script], { cwd: root });
  return JSON.parse(stdout);
}

const probe = `
  const names = (m) => Object.keys(m).sort();
  const report = (main, operators, testing) => console.log(JSON.stringify({
    main: names(main), operators: names(operators), testing: names(testing),
  }));`;

describe('the built package', () => {
  it('has been built (npm test builds before it runs vitest)', () => {
    for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'operators.js', 'testing/index.cjs']) {
      expect(existsSync(`${root}dist/${file}`), file).toBe(true);
    }
  });

  it('loads with import, and runs a turn', async () => {
    const out = (await load(
      `${probe}
      const main = await import('rx-tool-loop');
      const operators = await import('rx-tool-loop/operators');
      const testing = await import('rx-tool-loop/testing');
      const { z } = await import('zod');
      const tool = main.defineTool({ name: 'echo', description: 'echo', parameters: z.object({ s: z.string() }), execute: ({ s }) => s });
      const agent = main.createAgent({ provider: testing.scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { s: 'hi' } }] }, { text: 'ok' }]), model: 'm', tools: [tool] });
      const done = await agent.complete({ message: 'x' });
      const m = { main: main, operators, testing };
      console.log(JSON.stringify({ text: done.text, tool: done.history[2].content, main: Object.keys(main), operators: Object.keys(operators), testing: Object.keys(testing) }));`,
      'module',
    )) as Record<string, unknown>;
    expect(out.text).toBe('ok');
    expect(out.tool).toBe('hi');
    expect(out.main).toEqual(expect.arrayContaining(['createAgent', 'defineTool', 'runToolLoop', 'ToolRegistry', 'ToolLoopError']));
    expect(out.operators).toEqual(expect.arrayContaining(['prepareCalls', 'dispatchCalls', 'orderBySlot', 'fromAbortSignal']));
    expect(out.testing).toEqual(expect.arrayContaining(['scriptedModel', 'fakeTool', 'createTestScheduler', 'eventCode']));
  });

  it('loads with require, with the same public names as import', async () => {
    const cjs = (await load(
      `${probe}
      report(require('rx-tool-loop'), require('rx-tool-loop/operators'), require('rx-tool-loop/testing'));`,
      'commonjs',
    )) as Record<string, string[]>;
    const esm = (await load(
      `${probe}
      report(await import('rx-tool-loop'), await import('rx-tool-loop/operators'), await import('rx-tool-loop/testing'));`,
      'module',
    )) as Record<string, string[]>;
    expect(cjs.main).toContain('createAgent');
    expect(cjs).toEqual(esm);
  });

  it('keeps one error hierarchy across entry points (instanceof works from either format)', async () => {
    const out = (await load(
      `const main = require('rx-tool-loop');
       const e = new main.MaxIterationsError(3, []);
       console.log(JSON.stringify({ base: e instanceof main.ToolLoopError, name: e.name, code: e.code }));`,
      'commonjs',
    )) as Record<string, unknown>;
    expect(out).toEqual({ base: true, name: 'MaxIterationsError', code: 'max_iterations' });
  });
});
