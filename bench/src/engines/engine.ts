/**
 * The engine comparison (`npm run bench -- --only=engines`, issue 50 item 3): one durable flow,
 * the same on every engine, so that what differs between the figures is the engine.
 *
 *   app: submit(turnId) ─► worker: work.start(turnId) parks the turn (the agent runs until its
 *   approval) and keeps the snapshot where the engine keeps state ─► hooks.parked ─► app (another
 *   process): decide(turnId, requestId) ─► worker: work.finish(…) resumes the snapshot with the
 *   decision (hooks.resumed at its first event) ─► hooks.ended.
 *
 * Each engine is a module that exports an `Engine`. Its `openApp` runs in the bench's own process
 * (an app instance that never works), its `openWorker` in each worker process (engine-worker.ts).
 */
export interface Engine {
  /** As the report names it, e.g. 'DBOS Transact 5.3.0'. */
  readonly name: string;
  /** Why it cannot run here, if it cannot (e.g. graphile-worker needs Node 22.18); checked before anything opens. */
  unavailable?(): string | undefined;
  /** Once, before any worker starts: the engine's schema in the fresh database at `url`. */
  install(url: string): Promise<void>;
  openApp(url: string): Promise<EngineApp>;
  openWorker(url: string, options: WorkerOptions): Promise<EngineWorker>;
}

export interface EngineApp {
  /** Starts a turn (`turnId` is unique); resolves when the engine has it durably. */
  submit(turnId: string): Promise<void>;
  /**
   * The operator's decision for the turn's parked approval, durably, and the turn on its way to
   * resume on some worker; resolves once committed (the decision-to-resume latency starts here).
   */
  decide(turnId: string, requestId: string, decision: 'yes' | 'no'): Promise<void>;
  close(): Promise<void>;
}

export interface WorkerOptions {
  /** Turns this process runs at once. */
  readonly concurrency: number;
  /** A unique name of this worker process (an executor id where the engine wants one). */
  readonly workerId: string;
  readonly work: TurnWork;
  readonly hooks: WorkerHooks;
}

export interface EngineWorker {
  close(): Promise<void>;
}

/** The turn's own work, the same on every engine (turn-work.ts): the bench agent on its scripted model. */
export interface TurnWork {
  /** Runs a new turn until it parks at its approval: its snapshot (plain JSON data) and the approval's request id. */
  start(turnId: string): Promise<{ readonly snapshot: unknown; readonly requestId: string }>;
  /** Resumes a parked snapshot with the decision, to the turn's end; `onFirstEvent` when the resumed turn emits its first event. */
  finish(turnId: string, snapshot: unknown, requestId: string, decision: 'yes' | 'no', onFirstEvent: () => void): Promise<'done' | 'failed'>;
}

/** What a worker tells the bench (over IPC, engine-worker.ts). */
export interface WorkerHooks {
  parked(turnId: string, requestId: string): void;
  resumed(turnId: string): void;
  ended(turnId: string, status: 'done' | 'failed'): void;
}
