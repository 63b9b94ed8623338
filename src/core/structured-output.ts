/**
 * What a request asks the final answer to be: JSON matching `schema` (`ProviderRequest.output`).
 * `name` is 1-64 letters, digits, `_` or `-` (OpenAI's `json_schema.name`, a tool's name).
 */
export interface OutputFormat {
  readonly name: string;
  /** The JSON Schema of the answer (input side of the zod schema), frozen and shared by every request. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/** One reason an answer is not the output asked for: where in the JSON (`[]` for the whole), and what. */
export interface OutputIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** How a reply checks against a turn's output schema. */
export type OutputCheck = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly OutputIssue[] };

/**
 * A turn's output schema, ready to use (`outputSchema` makes one from a zod schema): the format
 * each request carries, and the check of a reply's text.
 */
export interface OutputSchema {
  readonly format: OutputFormat;
  /** Parses the reply as JSON (a reply wrapped in one ``` fence counts) and validates it. Never throws. */
  check(text: string): OutputCheck;
}
