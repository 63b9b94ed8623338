/**
 * A Chat Completions stream in the exact shape OpenAI sends: a text preamble with multi-byte
 * characters, then two tool calls whose argument fragments split JSON strings, escapes and a
 * surrogate pair, then the finish chunk, the usage chunk and `[DONE]`.
 */
const head = '"id":"chatcmpl-rec1","object":"chat.completion.chunk","created":1732900000,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_rec"';

const chunk = (delta: object, finish: string | null = null): string =>
  `data: {${head},"choices":[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}]}\n\n`;

const call0 = (args: string, first = false) =>
  chunk({ tool_calls: [first ? { index: 0, id: 'call_wx', type: 'function', function: { name: 'weather', arguments: args } } : { index: 0, function: { arguments: args } }] });
const call1 = (args: string, first = false) =>
  chunk({ tool_calls: [first ? { index: 1, id: 'call_note', type: 'function', function: { name: 'note', arguments: args } } : { index: 1, function: { arguments: args } }] });

export const recordedSse =
  chunk({ role: 'assistant', content: '', refusal: null }) +
  chunk({ content: 'Je vérifie ' }) +
  chunk({ content: 'la météo 🌦…' }) +
  call0('', true) +
  call0('{"ci') +
  call0('ty":"Zür') +
  call0('ich","unit":"c\\u00e9l') +
  call0('sius"}') +
  call1('', true) +
  call1('{"text":"say \\"hi\\"') +
  call1(' \\ud83d') +
  call1('\\ude00\\n"}') +
  chunk({}, 'tool_calls') +
  `data: {${head},"choices":[],"usage":{"prompt_tokens":81,"completion_tokens":37,"total_tokens":118}}\n\n` +
  'data: [DONE]\n\n';

/** What the recording assembles to. */
export const recordedText = 'Je vérifie la météo 🌦…';
export const recordedCalls = [
  { type: 'tool-call', id: 'call_wx', name: 'weather', arguments: '{"city":"Zürich","unit":"c\\u00e9lsius"}' },
  { type: 'tool-call', id: 'call_note', name: 'note', arguments: '{"text":"say \\"hi\\" \\ud83d\\ude00\\n"}' },
];
