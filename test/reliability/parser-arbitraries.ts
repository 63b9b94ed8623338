import fc from 'fast-check';

/**
 * fast-check generators for the text tool protocol: real calls in every supported format,
 * decoys the parser must skip, noise, and protocol fragments stitched at random.
 */

export const KNOWN = ['alpha', 'beta', 'gamma_tool'] as const;
export const UNKNOWN = ['shell', 'Alpha', 'delta'] as const;

export interface TextCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** Arguments: JSON objects whose text holds neither '<' nor '`' (the protocol's own delimiters). */
export const argumentsArb: fc.Arbitrary<Record<string, unknown>> = fc
  .dictionary(
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }),
    fc.jsonValue({ maxDepth: 3, depthSize: 'small' }),
    { maxKeys: 4 },
  )
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>)
  .filter((value) => !/[<`]/.test(JSON.stringify(value)) && !Object.prototype.hasOwnProperty.call(value, '__proto__'));

export const knownCall: fc.Arbitrary<TextCall> = fc.record({ name: fc.constantFrom(...KNOWN), arguments: argumentsArb });

const FORMATS = 9;

/** One call written in format `format` (tag aliases and casing, fences, markup, OpenAI shape). */
export function renderCall(call: TextCall, format: number): string {
  const json = JSON.stringify({ name: call.name, arguments: call.arguments });
  const params = (open: (k: string) => string) =>
    Object.entries(call.arguments)
      .map(([k, v]) => `${open(k)}${JSON.stringify(v)}</parameter>`)
      .join('\n');
  switch (format % FORMATS) {
    case 0:
      return `<tool_call>${json}</tool_call>`;
    case 1:
      return `<TOOL_CALL>\n${json}\n</TOOL_CALL>`;
    case 2:
      return `<tool-call>${JSON.stringify({ name: call.name, arguments: JSON.stringify(call.arguments) })}</tool-call>`;
    case 3:
      return `<toolcall> ${JSON.stringify({ name: call.name, parameters: call.arguments })} </toolcall>`;
    case 4:
      return `<tool_call>${JSON.stringify({ function: { name: call.name, arguments: JSON.stringify(call.arguments) } })}</tool_call>`;
    case 5:
      return `\n\`\`\`tool_call\n${json}\n\`\`\`\n`;
    case 6:
      return `<invoke name="${call.name}">${params((k) => `<parameter name="${k}">`)}</invoke>`;
    case 7:
      return `<function=${call.name}>\n${params((k) => `<parameter=${k}>\n`)}\n</function>`;
    default:
      return `<tool_calls>${JSON.stringify([{ name: call.name, arguments: call.arguments }])}</tool_calls>`;
  }
}

/** Markup formats need parameter names without quotes, '>' or surrounding space. */
export const renderable = (call: TextCall, format: number): boolean =>
  format % FORMATS !== 6 && format % FORMATS !== 7
    ? true
    : Object.keys(call.arguments).every((k) => /^[A-Za-z0-9_.-]+$/.test(k)) && Object.keys(call.arguments).length > 0;

/** Prose with no protocol characters and no phrase that introduces an example. */
export const noise: fc.Arbitrary<string> = fc
  .string({ unit: fc.oneof(fc.constantFrom(' ', '\n', '.', ',', '"', '{', '}', ':'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 40 })
  .map((text) => text.replace(/[<`]/g, ''))
  .filter((text) => !/example|e\.g|instance|such as/.test(text.toLowerCase()));

/** Something that looks like a call but must not run: unknown name, inside <think> (nested too), or an example. */
export const decoy: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('unknown', 'think', 'example', 'thinking', 'nested'), knownCall, fc.constantFrom(...UNKNOWN), fc.nat())
  .filter(([, call, , format]) => renderable(call, format))
  .map(([kind, call, other, format]) => {
    switch (kind) {
      case 'unknown':
        return renderCall({ ...call, name: other }, format);
      case 'think':
        return `<think>I could write ${renderCall(call, format)} here</think>`;
      case 'thinking':
        return `<THINKING>${renderCall(call, format)}</THINKING>`;
      case 'nested': // issue 16: an inner pair must not end the outer block
        return `<think>a <Think>b</think> ${renderCall(call, format)} </THINK>`;
      default:
        return `\n\nFor example: ${renderCall(call, format)}\n\n`;
    }
  });

/** A response: noise, real calls and decoys interleaved, and the real calls in order. */
export const responseArb = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.tuple(knownCall, fc.nat()).filter(([c, f]) => renderable(c, f)).map(([c, f]) => ({ call: c as TextCall | undefined, text: renderCall(c, f) })) },
      { weight: 1, arbitrary: decoy.map((text) => ({ call: undefined as TextCall | undefined, text })) },
    ),
    { minLength: 1, maxLength: 6 },
  )
  .chain((parts) => fc.array(noise, { minLength: parts.length + 1, maxLength: parts.length + 1 }).map((gaps) => ({ parts, gaps })))
  .map(({ parts, gaps }) => ({
    text: gaps[0] + parts.map((p, i) => p.text + gaps[i + 1]).join(''),
    calls: parts.flatMap((p) => (p.call ? [p.call] : [])),
  }));

/** Protocol fragments stitched together at random: the parser's hardest inputs. */
export const soup: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom('<tool_call>', '</tool_call>', '<TOOL_CALLS>', '</tool-call>', '<toolcall>', '<invoke name="alpha">', '<invoke ', '</invoke>'),
      fc.constantFrom('<parameter name="k">', '<parameter=', '</parameter>', '<function=beta>', '</function>', '```tool_call\n', '```', '```json\n'),
      fc.constantFrom('<think>', '</think>', '<thinking>', 'for example', 'e.g.', '\n\n', '"name"', '"arguments"', '"alpha"', '"tool_calls"'),
      fc.constantFrom('{', '}', '[', ']', '"', '\\', '\\"', ':', ',', ' ', '<', '>', '/', '\uD800', '\uDC00', 'İ', 'K'),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(''));

/** A valid response damaged by one random edit (cut, insertion, deletion, duplication). */
export const damaged: fc.Arbitrary<string> = fc
  .tuple(responseArb, fc.constantFrom('cut', 'insert', 'delete', 'duplicate'), fc.nat(), fc.nat(), soup)
  .map(([{ text }, edit, a, b, extra]) => {
    const i = a % (text.length + 1);
    const j = Math.min(text.length, i + (b % 40));
    switch (edit) {
      case 'cut':
        return text.slice(0, i);
      case 'insert':
        return text.slice(0, i) + extra + text.slice(i);
      case 'delete':
        return text.slice(0, i) + text.slice(j);
      default:
        return text.slice(0, j) + text.slice(i, j) + text.slice(j);
    }
  });
