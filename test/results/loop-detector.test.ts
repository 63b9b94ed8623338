import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, LoopAbortedError, LoopDetector, loopTexts, loopThresholds, type LoopObservation } from '../../src/index.js';
import { DEFAULT_KNOBS } from '../../src/core/knobs.js';
import { scriptedModel } from '../../src/testing/index.js';

const knobs = (over: Partial<typeof DEFAULT_KNOBS.loopDetection> = {}) => ({ ...DEFAULT_KNOBS.loopDetection, ...over });
const ok = (name: string, args: unknown, output = 'same'): LoopObservation => ({ name, args, outcome: 'executed', output });
const levels = (detector: LoopDetector, calls: LoopObservation[]) => calls.map((c) => detector.check([c]).verdicts.map((v) => `${v.pattern}:${v.level}`).join(','));

describe('thresholds follow maxRepeats', () => {
  it('exact repeat warns at maxRepeats, is blocked above it and aborts at maxRepeats + 2', () => {
    expect(loopThresholds(3)).toEqual({
      repeat: { warning: 3, blocked: 4, abort: 5 },
      pingPong: { warning: 4, blocked: 5, abort: 6 },
      noProgress: { warning: 5, blocked: 6, abort: 7 },
    });
    expect(loopThresholds(0).repeat).toEqual({ warning: 3, blocked: 4, abort: 5 });
  });

  it('detectors share one frozen set per maxRepeats; large values are computed the same way', () => {
    expect(loopThresholds(3)).toBe(loopThresholds(3));
    expect(Object.isFrozen(loopThresholds(3).repeat)).toBe(true);
    expect(loopThresholds(4)).not.toBe(loopThresholds(3));
    expect(loopThresholds(100)).toEqual({
      repeat: { warning: 100, blocked: 101, abort: 102 },
      pingPong: { warning: 101, blocked: 102, abort: 103 },
      noProgress: { warning: 102, blocked: 103, abort: 104 },
    });
  });
});

describe('exact repeat: the same name and arguments, counted over the sliding window', () => {
  it('warns at the 3rd, blocks at the 4th and aborts at the 5th identical call', () => {
    const d = new LoopDetector(knobs());
    const call = ok('read', { path: 'a', opts: { x: 1, y: 2 } }, 'r1');
    expect(levels(d, [call, call, call, { ...call, args: { opts: { y: 2, x: 1 }, path: 'a' } }, call])).toEqual([
      '',
      '',
      'repeat:warning',
      'repeat:blocked',
      'repeat:abort',
    ]);
  });

  it('counts repeats interleaved with other calls, as long as they are inside the window', () => {
    const d = new LoopDetector(knobs());
    const a = ok('read', { path: 'a' }, 'ra');
    expect(levels(d, [a, ok('x', { i: 1 }, '1'), a, ok('y', { i: 2 }, '2'), a])).toEqual(['', '', '', '', 'repeat:warning']);
  });

  it('repeats that slid out of the window no longer count', () => {
    const d = new LoopDetector(knobs({ window: 3 }));
    const a = ok('read', { path: 'a' }, 'ra');
    const others = [ok('x', { i: 1 }, '1'), ok('x', { i: 2 }, '2')];
    expect(levels(d, [a, a, ...others, a])).toEqual(['', '', '', '', '']);
  });

  it('the verdict carries the model-visible texts', () => {
    const d = new LoopDetector(knobs());
    const a = ok('read', { path: 'a' });
    d.check([a]);
    d.check([a]);
    expect(d.check([a]).notes).toEqual([loopTexts.repeatWarning('read', 3)]);
    expect(d.check([a]).notes).toEqual([loopTexts.repeatBlocked('read', 4)]);
    const report = d.check([a]);
    expect(report.notes).toEqual([]);
    expect(report.abort).toMatchObject({ pattern: 'repeat', level: 'abort', tool: 'read', count: 5, text: loopTexts.repeatAbort('read', 5) });
  });
});

describe('failed calls never count, and neither do ignored tools', () => {
  it('failed, denied and interrupted results are not recorded', () => {
    const d = new LoopDetector(knobs());
    const outcomes = ['failed', 'denied', 'interrupted', 'deduplicated', 'replaced', 'failed', 'failed'] as const;
    for (const outcome of outcomes) expect(d.check([{ name: 'read', args: {}, outcome, output: 'Error: x' }])).toEqual({ verdicts: [], notes: [] });
  });

  it('a tool in ignoreTools never trips it', () => {
    const d = new LoopDetector(knobs({ ignoreTools: ['poll'] }));
    const poll = ok('poll', { job: 1 }, 'pending');
    expect(levels(d, Array(8).fill(poll))).toEqual(Array(8).fill(''));
  });

  it('disabled, it reports nothing', () => {
    const d = new LoopDetector(knobs({ enabled: false }));
    const a = ok('read', {});
    expect(levels(d, Array(6).fill(a))).toEqual(Array(6).fill(''));
  });
});

describe('ping-pong: two tools alternating while neither result changes', () => {
  const a = (i: number, out = 'A') => ok('status', { poll: i }, out);
  const b = (i: number, out = 'B') => ok('wait', { step: i }, out);

  it('warns at 4 cycles, blocks at 5 and aborts at 6', () => {
    const d = new LoopDetector(knobs());
    const calls = [1, 2, 3, 4, 5, 6].flatMap((i) => [a(i), b(i)]);
    const seen = levels(d, calls).map((l) => l.split(',').filter((v) => v.startsWith('ping-pong')).join(','));
    expect(seen).toEqual([
      ...Array(7).fill(''),
      'ping-pong:warning', // 8 calls: 4 full cycles
      'ping-pong:warning', // still 4 full cycles
      'ping-pong:blocked',
      'ping-pong:blocked',
      'ping-pong:abort',
    ]);
  });

  it('a changing result is progress: no ping-pong', () => {
    const d = new LoopDetector(knobs());
    const calls = [1, 2, 3, 4, 5, 6].flatMap((i) => [a(i, `A${i}`), b(i)]);
    expect(levels(d, calls).some((l) => l.includes('ping-pong'))).toBe(false);
  });

  it('the warning names both tools', () => {
    const d = new LoopDetector(knobs());
    const notes = [1, 2, 3, 4].flatMap((i) => [d.check([a(i)]), d.check([b(i)])]).flatMap((r) => r.notes);
    expect(notes).toEqual([loopTexts.pingPongWarning('status', 'wait', 4)]);
  });
});

describe('no-progress: the same tool returning the same result although its arguments change', () => {
  it('warns at 5 batches, blocks at 6 and aborts at 7', () => {
    const d = new LoopDetector(knobs());
    const calls = [1, 2, 3, 4, 5, 6, 7].map((i) => ok('search', { q: `try ${i}` }, 'No results.'));
    expect(levels(d, calls)).toEqual(['', '', '', '', 'no-progress:warning', 'no-progress:blocked', 'no-progress:abort']);
  });

  it('a fan-out within one batch is one step, not a loop', () => {
    const d = new LoopDetector(knobs());
    const batch = Array.from({ length: 12 }, (_, i) => ok('write_file', { path: `f${i}` }, 'ok'));
    expect(d.check(batch)).toEqual({ verdicts: [], notes: [] });
  });

  it('different results are progress', () => {
    const d = new LoopDetector(knobs());
    const calls = [1, 2, 3, 4, 5, 6, 7].map((i) => ok('search', { q: `try ${i}` }, `hit ${i}`));
    expect(levels(d, calls)).toEqual(Array(7).fill(''));
  });
});

describe('in a turn: warnings and blocks reach the next request as system notes; the abort fails the turn', () => {
  const read = defineTool({ name: 'read', description: 'r', parameters: z.object({ path: z.string() }), execute: () => 'same content' });

  it('the 3rd identical call adds a warning to the next request only, the 4th a blocked note, the 5th aborts', async () => {
    const model = scriptedModel(() => ({ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }));
    const agent = createAgent({ provider: model, model: 'm', tools: [read] });
    const error = await agent.complete({ message: 'go' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LoopAbortedError);
    const loop = error as LoopAbortedError;
    expect(loop.toolName).toBe('read');
    expect(loop.message).toBe(loopTexts.repeatAbort('read', 5));
    expect(loop.history.filter((m) => m.role === 'tool')).toHaveLength(5);
    const systemNotes = model.requests.map((r) => r.messages.filter((m) => m.role === 'system').map((m) => m.content));
    expect(systemNotes).toEqual([[], [], [], [loopTexts.repeatWarning('read', 3)], [loopTexts.repeatBlocked('read', 4)]]);
    expect(loop.history.some((m) => m.role === 'system')).toBe(false);
  });

  it('a tool that keeps failing with the same arguments never trips the detector', async () => {
    const broken = defineTool({ name: 'broken', description: 'b', parameters: z.object({}), execute: () => ({ success: false, output: 'nope' }) });
    const model = scriptedModel((_, n) => (n < 8 ? { toolCalls: [{ name: 'broken', arguments: {} }] } : { text: 'gave up' }));
    const agent = createAgent({ provider: model, model: 'm', tools: [broken] });
    const out = await agent.complete({ message: 'go' });
    expect(out.text).toBe('gave up');
    expect(model.requests.flatMap((r) => r.messages.filter((m) => m.role === 'system'))).toEqual([]);
  });
});

describe('the dedup key lets a large batch skip the window scan, with the same verdicts', () => {
  it('random batches: observations carrying the dedup guard argsKey get exactly the verdicts of those without it', async () => {
    const fc = (await import('fast-check')).default;
    const { canonicalJson } = await import('../../src/results/canonical-json.js');
    const call = fc.record({ name: fc.constantFrom('a', 'b'), arg: fc.integer({ min: 0, max: 4 }), output: fc.constantFrom('x', 'y') });
    const batches = fc.array(fc.array(call, { maxLength: 30 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(batches, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 2, max: 8 }), (raw, maxRepeats, window) => {
        const plain = new LoopDetector(knobs({ maxRepeats, window }));
        const keyed = new LoopDetector(knobs({ maxRepeats, window }));
        for (const batch of raw) {
          // what the dedup guard lets through: one call per name and arguments per batch
          const seen = new Set<string>();
          const executed = batch.filter((c) => !seen.has(`${c.name}/${c.arg}`) && seen.add(`${c.name}/${c.arg}`));
          const observations = executed.map((c) => ok(c.name, { i: c.arg }, c.output));
          const withKey = observations.map((o) => ({ ...o, argsKey: canonicalJson(o.args) }));
          expect(keyed.check(withKey)).toEqual(plain.check(observations));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a batch larger than the window still sees a repeat of an earlier batch while that batch is in the window', () => {
    const d = new LoopDetector(knobs({ window: 4, maxRepeats: 2 }));
    const obs = (i: number) => ({ ...ok('read', { i }, `r${i}`), argsKey: `{"i":${i}}` });
    d.check([obs(1)]);
    const report = d.check([obs(1), obs(2), obs(3), obs(4), obs(5)]);
    expect(report.verdicts.map((v) => `${v.pattern}:${v.level}:${v.count}`)).toEqual(['repeat:warning:2']);
  });
});

describe('LoopDetector.checkRound: one round as the loop checks it', () => {
  it('random rounds: the same reports and windows as a detector rebuilt from each toWindow, and the input window is left as it was', async () => {
    const fc = (await import('fast-check')).default;
    const call = fc.record({ name: fc.constantFrom('a', 'b', 'c'), arg: fc.integer({ min: 0, max: 3 }), output: fc.constantFrom('x', 'y'), failed: fc.boolean() });
    const rounds = fc.array(fc.array(call, { maxLength: 12 }), { minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(rounds, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 2, max: 8 }), (raw, maxRepeats, size) => {
        const k = knobs({ maxRepeats, window: size, ignoreTools: ['c'] });
        let viaRound = new LoopDetector(k).toWindow();
        let viaCopy = viaRound;
        for (const round of raw) {
          const results = round.map((c) => ({ ...ok(c.name, { i: c.arg }, c.output), ...(c.failed ? { outcome: 'failed' as const } : {}) }));
          const before = structuredClone(viaRound);
          const input = viaRound;
          const { report, window } = LoopDetector.checkRound(k, viaRound, results);
          const detector = new LoopDetector(k, viaCopy);
          expect(report).toEqual(detector.check(results));
          viaCopy = detector.toWindow();
          expect(window).toEqual(viaCopy);
          expect(input).toEqual(before); // the snapshot's window is never written
          viaRound = window;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('with detection off, reports nothing and hands the window back unchanged', () => {
    const window = new LoopDetector(knobs()).toWindow();
    const call = ok('read', { path: 'a' });
    const { report, window: next } = LoopDetector.checkRound(knobs({ enabled: false }), window, [call, call, call, call, call]);
    expect(report.verdicts).toEqual([]);
    expect(next).toBe(window);
  });
});
