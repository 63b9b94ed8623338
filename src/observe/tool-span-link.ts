import type { ToolRunner } from '../core/tool-runner.js';
import type { TurnSpans } from './turn-spans.js';

/**
 * Connects a turn's execute stage to its spans: give `runTool` to the turn's resolved execution
 * and the link to `traceTurn`; while the traced turn is subscribed, each tool then runs inside
 * its `execute_tool` span's context, so spans the tool starts nest under it. Before (or after)
 * that, tools run directly. One link per turn.
 *
 * @example
 * ```ts
 * const link = new ToolSpanLink();
 * runToolLoop({ ...resolved, runTool: link.runTool }, input).pipe(traceTurn(tracer, options, link));
 * ```
 */
export class ToolSpanLink {
  #spans: TurnSpans | undefined;

  /** The port for `ResolvedAgentExecution.runTool`. */
  readonly runTool: ToolRunner = (call, run) => (this.#spans ? this.#spans.runTool(call, run) : run());

  /** Called by `traceTurn` when the turn's spans exist (`undefined` when they are gone). */
  attach(spans: TurnSpans | undefined): void {
    this.#spans = spans;
  }
}
