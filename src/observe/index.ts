// observe: turn and observer events, logging, tracing, progress lines.
export type {
  TurnEvent,
  TurnEventOf,
  SlotOutcome,
  DoneReason,
  ObserverEvent,
  ToolObserver,
  ToolCallCorrelation,
} from '../core/events.js';
export type { Logger } from './logger.js';
export { noopLogger } from './logger.js';
export { logTurn } from './log-turn.js';
export type { LogTurnOptions } from './log-turn.js';
export { pinoScrubbing, pinoRedactPaths } from './pino-scrubbing.js';
export { traceTurn } from './trace-turn.js';
export { ToolSpanLink } from './tool-span-link.js';
export type { ToolRunner, ToolRunnerCall } from '../core/tool-runner.js';
export type { TurnSpanOptions } from './turn-spans.js';
export type { TelemetryOptions } from './telemetry-options.js';
export { progressLine, progressLines } from './progress-lines.js';
export type { ProgressLineOptions } from './progress-lines.js';
export * as semconv from './semconv.js';
