/** What `createAgent` records about a turn beyond its logger and tracer. */
export interface TelemetryOptions {
  /** Record tool arguments and results on `execute_tool` spans, scrubbed. Default false. */
  readonly captureContent?: boolean;
}
