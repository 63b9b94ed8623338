import type { TurnEvent } from '../core/events.js';
import type { ChatMessage } from '../core/messages.js';
import { checkedStore } from './checked-store.js';
import { DurableStoreError } from './durable-errors.js';
import { FINISHED_STATUSES, type AuditRecord, type StoreChange, type StoredDecision, type StoredEvent, type StoredTurn, type TurnControl, type TurnPatch, type TurnStore } from './turn-store.js';

/** A copy through JSON: what the store keeps and returns is plain data, as from a database. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * The embedded turn store: everything in this process's memory (lost when it exits). The
 * default for one process; use `pgliteTurnStore` to survive restarts on one machine and
 * `postgresTurnStore` for several instances.
 *
 * @example
 * ```ts
 * const durable = durableAgent(agent, { store: memoryTurnStore() });
 * ```
 */
export function memoryTurnStore(options: { now?: () => number } = {}): TurnStore {
  const now = options.now ?? Date.now;
  const turns = new Map<string, StoredTurn>();
  const decisions = new Map<string, Map<string, StoredDecision>>();
  let audit: AuditRecord[] = [];
  const allowed = new Map<string, Set<string>>();
  const activated = new Map<string, Set<string>>();
  const histories = new Map<string, ChatMessage[]>();
  let events: StoredEvent[] = [];
  let lastSeq = 0; // not the log's length: a prune shortens the log, and a seq is never given twice
  const claims = new Set<string>();
  const controls: { turnId: string; control: TurnControl; taken: number | null }[] = [];
  const controlListeners = new Map<string, Set<() => void>>();
  const listeners = new Set<(change: StoreChange) => void>();
  const lease = (leaseMs: number | undefined): number | null => (leaseMs === undefined ? null : now() + leaseMs);
  /** Whether `attempt` is the turn's (no attempt given: no fence). */
  const holds = (turnId: string, attempt: number | undefined): boolean => attempt === undefined || turns.get(turnId)?.attempt === attempt;
  const changed = (kind: StoreChange['kind'], turnId: string): void => {
    for (const listener of [...listeners]) queueMicrotask(() => listener({ kind, turnId }));
  };
  /** Appends to a turn's event log, and tells the watchers (nothing to tell for no event). */
  const log = (turnId: string, list: readonly TurnEvent[]): void => {
    if (list.length === 0) return;
    for (const event of list) events.push({ seq: ++lastSeq, turnId, event: copy(event) });
    changed('event', turnId);
  };
  const put = (turn: StoredTurn): StoredTurn => {
    turns.set(turn.turnId, turn);
    changed('turn', turn.turnId);
    return copy(turn);
  };
  return checkedStore({
    backend: 'memory',
    async createTurn({ turnId, agent, conversationId, input, status, owner, leaseMs }) {
      if (turns.has(turnId)) throw new DurableStoreError(`A turn with id '${turnId}' exists already.`);
      const leaseUntil = status === 'running' ? lease(leaseMs) : null;
      const turn: StoredTurn = { turnId, agent, conversationId: conversationId ?? null, status, input: copy(input), snapshot: null, pending: [], outcome: null, attempt: 1, owner: owner ?? null, updatedAt: now(), leaseUntil };
      return put(turn);
    },
    async getTurn(turnId) {
      const turn = turns.get(turnId);
      return turn && copy(turn);
    },
    async listTurns(filter = {}) {
      const statuses: readonly unknown[] | undefined = filter.status === undefined || Array.isArray(filter.status) ? filter.status : [filter.status];
      return [...turns.values()]
        .filter((t) => (statuses === undefined || statuses.includes(t.status)) && (filter.conversationId === undefined || t.conversationId === filter.conversationId))
        .map(copy);
    },
    async claimTurn(turnId, owner, from, options = {}) {
      const turn = turns.get(turnId);
      if (!turn || !from.includes(turn.status)) return undefined;
      if (options.expired && turn.status === 'running' && (turn.leaseUntil === null || turn.leaseUntil > now())) return undefined;
      const busy = (t: StoredTurn): boolean => t.turnId !== turnId && t.conversationId === turn.conversationId && t.status === 'running';
      const before = (t: StoredTurn): boolean =>
        t.turnId !== turnId && t.conversationId === turn.conversationId && t.status === 'queued' && (t.updatedAt < turn.updatedAt || (t.updatedAt === turn.updatedAt && t.turnId < turnId));
      const queuedFirst = options.inOrder === true && turn.status === 'queued';
      if (options.alone && turn.conversationId !== null && [...turns.values()].some((t) => busy(t) || (queuedFirst && before(t)))) return undefined;
      return put({ ...turn, status: 'running', attempt: turn.attempt + 1, owner, updatedAt: now(), leaseUntil: lease(options.leaseMs) });
    },
    async updateTurn(turnId, attempt, patch: TurnPatch, list: readonly TurnEvent[] = []) {
      const turn = turns.get(turnId);
      if (!turn || turn.attempt !== attempt) return false;
      put({ ...turn, ...copy(patch), updatedAt: now() });
      if (list.length > 0) log(turnId, list);
      return true;
    },
    async renewLease(turnId, attempt, leaseMs) {
      const turn = turns.get(turnId);
      if (!turn || turn.attempt !== attempt) return false;
      turns.set(turnId, { ...turn, leaseUntil: now() + leaseMs }); // no change to announce
      return true;
    },
    async expiredTurns(agent) {
      const at = now();
      const expired = [...turns.values()].filter((t) => t.agent === agent && t.status === 'running' && t.leaseUntil !== null && t.leaseUntil <= at);
      return expired.sort((a, b) => a.leaseUntil! - b.leaseUntil!).slice(0, 100).map((t) => t.turnId);
    },
    async control(turnId, control) {
      const status = turns.get(turnId)?.status;
      if (status !== 'queued' && status !== 'running' && status !== 'parked') return undefined;
      controls.push({ turnId, control: copy(control), taken: null });
      for (const listener of [...(controlListeners.get(turnId) ?? [])]) queueMicrotask(listener);
      return status;
    },
    async takeControls(turnId, attempt) {
      if (!holds(turnId, attempt)) return { steering: [] };
      const mine = controls.filter((c) => c.turnId === turnId);
      const cancel = mine.find((c) => c.control.kind === 'cancel');
      const steering: string[] = [];
      for (const c of mine) if (c.control.kind === 'steer' && c.taken === null) (c.taken = attempt), steering.push(c.control.message);
      return cancel ? { cancelledBy: cancel.control.by, steering } : { steering };
    },
    watchControls(turnId, listener) {
      let set = controlListeners.get(turnId);
      if (!set) controlListeners.set(turnId, (set = new Set()));
      const own = () => listener(); // each watch its own entry, even for the same function
      set.add(own);
      return () => {
        set.delete(own);
        if (set.size === 0) controlListeners.delete(turnId);
      };
    },
    async decide({ turnId, requestId, decision, decidedBy }) {
      let byRequest = decisions.get(turnId);
      if (!byRequest) decisions.set(turnId, (byRequest = new Map()));
      const winner = byRequest.get(requestId);
      if (winner) return { accepted: false, winner: copy(winner) };
      const stored: StoredDecision = { turnId, requestId, decision: copy(decision), decidedBy, decidedAt: now() };
      byRequest.set(requestId, stored);
      changed('decision', turnId);
      return { accepted: true, decision: copy(stored) };
    },
    async claimSnapshot(turnId, sequence) {
      const key = `${turnId}\0${sequence}`;
      if (claims.has(key)) return false;
      claims.add(key);
      return true;
    },
    async decisions(turnId) {
      return [...(decisions.get(turnId)?.values() ?? [])].map(copy);
    },
    async appendAudit(record, attempt) {
      if (!holds(record.turnId, attempt)) return false;
      audit.push(copy(record));
      return true;
    },
    async auditLog(filter = {}) {
      return audit.filter((r) => (filter.turnId === undefined || r.turnId === filter.turnId) && (filter.conversationId === undefined || r.conversationId === filter.conversationId)).map(copy);
    },
    async allow(conversationId, toolName) {
      let list = allowed.get(conversationId);
      if (!list) allowed.set(conversationId, (list = new Set()));
      list.add(toolName);
    },
    async allowList(conversationId) {
      return [...(allowed.get(conversationId) ?? [])];
    },
    async activate(conversationId, toolNames) {
      let set = activated.get(conversationId);
      if (!set) activated.set(conversationId, (set = new Set()));
      for (const name of toolNames) set.add(name);
    },
    async activations(conversationId) {
      return [...(activated.get(conversationId) ?? [])].sort();
    },
    async saveHistory(conversationId, history, fence) {
      if (fence && !holds(fence.turnId, fence.attempt)) return false;
      histories.set(conversationId, copy([...history]));
      return true;
    },
    async history(conversationId) {
      return copy(histories.get(conversationId) ?? []);
    },
    async conversationState(conversationId, options) {
      const allowList = [...(allowed.get(conversationId) ?? [])];
      const activations = [...(activated.get(conversationId) ?? [])].sort();
      return options?.history ? { allowList, activations, history: copy(histories.get(conversationId) ?? []) } : { allowList, activations };
    },
    async appendEvents(turnId, list: readonly TurnEvent[], attempt) {
      if (!holds(turnId, attempt)) return false;
      log(turnId, list);
      return true;
    },
    async events(turnId, afterSeq = 0) {
      return events.filter((e) => e.turnId === turnId && e.seq > afterSeq).map(copy);
    },
    async prune({ olderThanMs }) {
      const cutoff = now() - olderThanMs;
      const gone = new Set([...turns.values()].filter((t) => FINISHED_STATUSES.includes(t.status) && t.updatedAt < cutoff).map((t) => t.turnId));
      for (const turnId of gone) (turns.delete(turnId), decisions.delete(turnId));
      events = events.filter((e) => !gone.has(e.turnId));
      audit = audit.filter((r) => !gone.has(r.turnId));
      for (const key of claims) if (gone.has(key.slice(0, key.indexOf('\0')))) claims.delete(key);
      for (let at = controls.length - 1; at >= 0; at--) if (gone.has(controls[at].turnId)) controls.splice(at, 1);
      return { turns: gone.size };
    },
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      controlListeners.clear();
    },
  });
}
