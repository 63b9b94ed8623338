import type { OutputFormat } from '../../core/structured-output.js';

/** The fixed start of the answer-format section. */
export const outputPreamble =
  '# Answer format\n' +
  'When you give your final answer (not a tool call), write only a JSON value that matches the JSON Schema below: ' +
  'no other text before or after it.';

/**
 * The system-prompt section that asks a text-protocol model for structured output: the
 * preamble, then the output's JSON Schema as compact JSON.
 *
 * @example
 * ```ts
 * outputInstructions({ name: 'output', schema: { type: 'object' } });
 * // '# Answer format\nWhen you give your final answer … after it.\nSchema (output): {"type":"object"}'
 * ```
 */
export function outputInstructions(format: OutputFormat): string {
  return `${outputPreamble}\nSchema (${format.name}): ${JSON.stringify(format.schema)}`;
}
