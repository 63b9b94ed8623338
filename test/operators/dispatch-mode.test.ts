import { describe, expect, it } from 'vitest';
import { resolveKnobs, type PreparedCall } from '../../src/index.js';
import { dispatchMode } from '../../src/operators.js';
import { echo, executable, parsed } from './helpers.js';
import { toPrepared } from '../../src/operators.js';

const a = echo('a');
const b = echo('b');
const on = resolveKnobs({ parallelTools: true });
const filled = (slot: number): PreparedCall => ({
  ...toPrepared(parsed(slot, 'nope')),
  filled: { outcome: 'unknown', output: 'Unknown tool: nope', success: false },
});

describe('dispatchMode: parallel only when enabled, more than one executable call, no prompt and no tool_search', () => {
  it('two executable calls run in parallel when parallelTools is on', () => {
    expect(dispatchMode(on, [executable(0, a), executable(1, b)])).toBe('parallel');
  });

  it('parallelTools off (the default) is always sequential', () => {
    expect(dispatchMode(resolveKnobs({}), [executable(0, a), executable(1, b)])).toBe('sequential');
  });

  it('a single call is sequential', () => {
    expect(dispatchMode(on, [executable(0, a)])).toBe('sequential');
  });

  it('one executable call among filled slots is sequential', () => {
    expect(dispatchMode(on, [executable(0, a), filled(1), filled(2)])).toBe('sequential');
  });

  it('a call that needed an approval prompt makes the batch sequential', () => {
    expect(dispatchMode(on, [executable(0, a), { ...executable(1, b), prompted: true }])).toBe('sequential');
  });

  it('a tool_search call makes the batch sequential', () => {
    expect(dispatchMode(on, [executable(0, a), executable(1, echo('tool_search'))])).toBe('sequential');
  });
});
