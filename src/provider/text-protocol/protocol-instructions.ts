import type { ToolSpec } from '../../core/tool.js';

/** The fixed part of the protocol section: how to call tools and how results come back. */
export const protocolPreamble =
  '# Tools\n' +
  "You can call tools. To call one, write a <tool_call> block holding one JSON object with the tool's name and its arguments:\n" +
  '<tool_call>{"name": "tool_name", "arguments": {"param": "value"}}</tool_call>\n' +
  'You may write several <tool_call> blocks in one reply; they run in the order written. After your tool calls, stop: ' +
  'the results come back in the next message as <tool_result name="tool_name">…</tool_result> blocks. ' +
  'Call only the tools listed below, with arguments that match their parameter schema. ' +
  'When you need no tool, answer in plain text without any <tool_call> block.\n\n' +
  '## Available tools';

/**
 * Builds the system-prompt section of the text protocol: the preamble, then each tool as
 * `- name: description` with its parameter schema as compact JSON. `describe` renders one
 * tool's entry; pass a cached renderer so a shared spec is serialized once.
 *
 * @example
 * ```ts
 * protocolInstructions([weather.spec]);
 * // '# Tools\nYou can call tools. … ## Available tools\n- weather: Current weather\n  Parameters: {"type":"object",…}'
 * ```
 */
export function protocolInstructions(specs: readonly ToolSpec[], describe: (spec: ToolSpec) => string = describeTool): string {
  let text = protocolPreamble;
  for (const spec of specs) text += `\n${describe(spec)}`;
  return text;
}

/** One tool's entry in the protocol section. */
export function describeTool(spec: ToolSpec): string {
  const description = spec.description.trim().replace(/\s*\n\s*/g, ' ');
  return `- ${spec.name}: ${description}\n  Parameters: ${JSON.stringify(spec.parameters)}`;
}
