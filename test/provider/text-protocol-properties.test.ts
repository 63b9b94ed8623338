import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { from } from 'rxjs';
import { createAgent, defineTool, parseTextToolCalls, textProtocolProvider, type ProviderEvent, type TurnEvent } from '../../src/index.js';
import { scanTextToolCalls } from '../../src/provider/text-protocol/parse-text-tool-calls.js';
import type { ScanMeter } from '../../src/provider/text-protocol/finder.js';
import { scriptedModel } from '../../src/testing/index.js';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { markupDelta, markupEnd, OUTSIDE_MARKUP } from '../../src/provider/text-protocol/markup-delta.js';

const known = ['alpha', 'beta', 'gamma_tool'];

/** Prose that cannot contain an example phrase ("for example", "e.g.", …) or protocol characters. */
const prose = fc.string({ unit: fc.constantFrom(...'abcdegijklmnopqrstuvwyz ,!?\n'.split('')), maxLength: 30 });

/** JSON arguments whose text has no '<' or '`' (the protocol's own delimiters). */
const args = fc
  .dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>)
  .filter((value) => !/[<`]/.test(JSON.stringify(value)));

const call = fc.record({ name: fc.constantFrom(...known), arguments: args });

/** One call written in one of the text formats. */
function render(c: { name: string; arguments: Record<string, unknown> }, format: number): string {
  const json = JSON.stringify({ name: c.name, arguments: c.arguments });
  switch (format) {
    case 0:
      return `<tool_call>${json}</tool_call>`;
    case 1:
      return `<tool-call>\n${JSON.stringify({ name: c.name, arguments: JSON.stringify(c.arguments) })}\n</tool-call>`;
    case 2:
      return `\n\`\`\`tool_call\n${json}\n\`\`\`\n`;
    case 3:
      return `<invoke name="${c.name}">${Object.entries(c.arguments)
        .map(([k, v]) => `<parameter name="${k}">${JSON.stringify(v)}</parameter>`)
        .join('\n')}</invoke>`;
    default:
      return `<function=${c.name}>\n${Object.entries(c.arguments)
        .map(([k, v]) => `<parameter=${k}>\n${JSON.stringify(v)}\n</parameter>`)
        .join('\n')}\n</function>`;
  }
}

/** A response: prose and calls in random formats, and the calls it holds. */
const response = fc
  .array(fc.tuple(prose, call, fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 5 })
  .chain((parts) => prose.map((tail) => ({ parts, tail })))
  .map(({ parts, tail }) => ({
    text: parts.map(([p, c, f]) => p + render(c, f)).join('') + tail,
    calls: parts.map(([, c]) => c),
  }));

/** Protocol fragments stitched together at random: the parser's hardest inputs. */
const soup = fc
  .array(
    fc.oneof(
      fc.constantFrom('<tool_call>', '</tool_call>', '<tool_calls>', '</tool-call>', '<invoke name="alpha">', '</invoke>', '<parameter name="k">'),
      fc.constantFrom('</parameter>', '<function=beta>', '</function>', '```tool_call\n', '```', '<think>', '</think>', 'for example', 'e.g.'),
      fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', '"name"', '"arguments"', '"alpha"', '"tool_calls"', '\n', ' ', '<', '>'),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

/** Cuts a text into deltas at the given offsets. */
const cut = (text: string, offsets: number[]): string[] => {
  const points = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  const deltas: string[] = [];
  let start = 0;
  for (const p of [...points, text.length]) {
    if (p > start) deltas.push(text.slice(start, p));
    start = Math.max(start, p);
  }
  return deltas;
};

describe('the parser never throws', () => {
  it('on arbitrary strings (any UTF-16, lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const result = scanTextToolCalls(text, known);
        expect(Array.isArray(result.calls)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('on random stitchings of protocol fragments, and only returns known names with object arguments', () => {
    fc.assert(
      fc.property(soup, (text) => {
        for (const c of scanTextToolCalls(text, known).calls) {
          expect(known).toContain(c.name);
          expect(typeof c.arguments === 'object' && c.arguments !== null && !Array.isArray(c.arguments)).toBe(true);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('on input that is not a string', () => {
    expect(parseTextToolCalls(undefined as unknown as string, known)).toEqual([]);
    expect(parseTextToolCalls(42 as unknown as string, known)).toEqual([]);
  });
});

describe('every text format round-trips: the calls written are the calls parsed', () => {
  it('in order, with their arguments, and nothing malformed', () => {
    fc.assert(
      fc.property(response, ({ text, calls }) => {
        expect(scanTextToolCalls(text, known)).toEqual({ calls, malformed: false });
      }),
      { numRuns: 300 },
    );
  });

  it('a whole-response JSON call or list round-trips too', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 3 }), fc.boolean(), (calls, wrap) => {
        const text = calls.length === 1 && !wrap ? JSON.stringify(calls[0]) : JSON.stringify(wrap ? { tool_calls: calls } : calls);
        expect(scanTextToolCalls(text, known)).toEqual({ calls, malformed: false });
      }),
      { numRuns: 200 },
    );
  });
});

describe('the same calls however the text is split into deltas', () => {
  const tools = known.map((name) => defineTool({ name, description: name, parameters: z.record(z.string(), z.unknown()), execute: () => 'ok' }));

  /** The tool-call events of a turn whose model streams `deltas` once, then answers. */
  async function turnCalls(deltas: string[]) {
    const events: ProviderEvent[] = [...deltas.map((text) => ({ type: 'text-delta' as const, text })), { type: 'finish', reason: 'stop' }];
    const inner = scriptedModel([from(events), { text: 'done' }], { nativeTools: false });
    const agent = createAgent({ provider: textProtocolProvider(inner), model: 'm', tools, knobs: { maxMalformedProtocolRetries: 0 } });
    const all = await lastValueFrom(agent.run({ message: 'go' }).pipe(toArray()));
    return {
      deltas: all.filter((e): e is Extract<TurnEvent, { type: 'text-delta' }> => e.type === 'text-delta' && e.iteration === 1).map((e) => e.text),
      calls: all.filter((e): e is Extract<TurnEvent, { type: 'tool-call' }> => e.type === 'tool-call').map((e) => ({ name: e.name, arguments: e.args })),
    };
  }

  /** The whole text as its deltas show it: without the protocol's markup. */
  const shown = (text: string): string => {
    const step = markupDelta(OUTSIDE_MARKUP, text);
    return step.text + markupEnd(step.state);
  };

  it('through a text-protocol agent: deltas show the text without its markup, and the calls equal those parsed from the whole text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(response.map((r) => r.text), soup), fc.array(fc.nat(), { maxLength: 12 }), async (text, offsets) => {
        const deltas = cut(text, offsets);
        const got = await turnCalls(deltas);
        expect(got.deltas.join('')).toBe(shown(text));
        expect(got.deltas.filter((d) => /<\/?(tool[_-]?calls?|think(ing)?)>/i.test(d))).toEqual([]);
        expect(got.calls).toEqual(parseTextToolCalls(text, known));
      }),
      { numRuns: 80 },
    );
  });
});

describe('the parser runs in linear time', () => {
  /** Characters visited per input character: bounded by a constant for linear time. */
  const stepsPerChar = (text: string): number => {
    const meter: ScanMeter = { steps: 0 };
    scanTextToolCalls(text, known, meter);
    return meter.steps / Math.max(1, text.length);
  };

  it('visits each character a bounded number of times on any input', () => {
    fc.assert(
      fc.property(fc.oneof(soup, response.map((r) => r.text)), (text) => {
        expect(stepsPerChar(text)).toBeLessThanOrEqual(30 + 200 / Math.max(1, text.length));
      }),
      { numRuns: 300 },
    );
  });

  const MB = 1 << 20;
  const fill = (unit: string, prefix = '', suffix = ''): string => prefix + unit.repeat(Math.ceil((MB - prefix.length - suffix.length) / unit.length)) + suffix;
  const adversarial: [string, string, number][] = [
    ['repeated opening tags', fill('<tool_call>'), 0],
    ['repeated opening tags with a brace', fill('<tool_call>{'), 0],
    ['an unclosed whole-response call', fill('{"name":"alpha","arguments":', ''), 0],
    ['repeated bare <invoke', fill('<invoke '), 0],
    ['repeated unclosed invokes', fill('<invoke name="alpha"><parameter name="k">'), 0],
    ['one invoke with a huge number of parameters', fill('<parameter name="k">1</parameter>', '<invoke name="alpha">', '</invoke>'), 1],
    ['deep bracket nesting', fill('[', '<tool_call>'), 0],
    ['repeated <think>', fill('<think>'), 0],
    ['repeated </think>', fill('</think>'), 0],
    ['repeated fences', fill('```tool_call\n'), 0],
    ['closing-tag prefixes that never close', fill('</tool', '<tool_call>{'), 0],
    ['escaped quotes in an unterminated string', fill('\\"', '<tool_call>{"name":"'), 0],
    ['many valid calls', fill('<tool_call>{"name":"alpha"}</tool_call>'), Math.ceil(MB / 39)],
    ['many example-guarded calls', fill('for example <tool_call>{"name":"alpha"}</tool_call>'), 0],
    ['a megabyte of "<"', fill('<'), 0],
    ['a megabyte of backticks', fill('`'), 0],
  ];

  it.each(adversarial)('1 MB of %s completes with a bounded number of steps per character', (_name, text, expectedCalls) => {
    expect(text.length).toBeGreaterThanOrEqual(MB);
    const meter: ScanMeter = { steps: 0 };
    const result = scanTextToolCalls(text, known, meter);
    expect(result.calls).toHaveLength(expectedCalls);
    expect(meter.steps / text.length).toBeLessThanOrEqual(30);
  });
});
