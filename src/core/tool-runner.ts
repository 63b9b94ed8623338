/** The call a `ToolRunner` runs: enough to find its telemetry (the `execute_tool` span of `id`). */
export interface ToolRunnerCall {
  readonly id: string;
  readonly name: string;
  readonly slot: number;
}

/**
 * The port through which the execute stage calls a tool's code: `run` calls `tool.execute` and
 * the runner returns what `run` returned (or an Observable that stands for it). Telemetry sets one
 * per turn so the tool runs inside its `execute_tool` span's context and spans the tool creates
 * nest under it; without one, `run()` is called directly.
 *
 * @example
 * ```ts
 * const direct: ToolRunner = (_call, run) => run();
 * ```
 */
export type ToolRunner = (call: ToolRunnerCall, run: () => unknown) => unknown;
