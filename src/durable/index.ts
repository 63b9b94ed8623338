/**
 * `rx-tool-loop/durable`: turns that park at an approval, survive restarts and crashes, and go
 * on in any process — a `TurnStore` (memory, PGlite, PostgreSQL), `durableAgent` and pg-boss
 * workers. The database packages (`pg`, `pg-boss`, `@electric-sql/pglite`) are optional peers:
 * only the adapter you use needs its package. Their types are structural (`PgPool`, `PgBossClient`,
 * `PgliteDb`), so these types never import a peer's.
 */
export type { TurnStore, StoredTurn, StoredInput, StoredDecision, StoredEvent, StoreChange, TurnStatus, TurnPatch, DecideResult, AuditRecord, TurnControl, TakenControls, ConversationState, PruneOptions, PruneResult } from './turn-store.js';
export { FINISHED_STATUSES } from './turn-store.js';
export { memoryTurnStore } from './memory-turn-store.js';
export { pgliteTurnStore, type PgliteStoreOptions } from './pglite-turn-store.js';
export type { PgliteDb, PgliteQuery } from './pglite-db.js';
export { postgresTurnStore, poolDriver } from './postgres-turn-store.js';
export type { PgPool, PgPoolClient, PgResult } from './pg-pool.js';
export { openSqlTurnStore, type SqlStoreOptions } from './sql-turn-store.js';
export { MIGRATIONS, migrate, type SqlDriver } from './sql-migrations.js';
export { durableAgent, type DurableAgent, type DurableAgentOptions, type DecisionOutcome, type CancelOutcome, type SteerOutcome } from './durable-agent.js';
export type { TakeOver } from './turn-claims.js';
export { storeJournal } from './store-journal.js';
export { persistTurn, type PersistTarget } from './persist-turn.js';
export { turnEvents, type TurnEventsOptions } from './turn-events.js';
export { turnQueue, type TurnQueue, type TurnQueueOptions } from './turn-queue.js';
export { pruneTurns, DEFAULT_RETENTION_MS, type PruneTurnsOptions } from './prune-turns.js';
export type { WakeUps } from './job-wake-ups.js';
export type { PgBossClient, PgBossJob } from './pg-boss-client.js';
export { ConversationBusyError, DurableStoreError, TurnTakenOverError } from './durable-errors.js';
export { idProblem, MAX_ID_LENGTH } from './durable-ids.js';
