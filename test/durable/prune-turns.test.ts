import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import {
  DEFAULT_RETENTION_MS,
  DurableStoreError,
  durableAgent,
  memoryTurnStore,
  pruneTurns,
  turnQueue,
  type PruneOptions,
  type PruneResult,
  type TurnStore,
} from '../../src/durable/index.js';
import { postgresQueueBackend } from './queue-backends.js';
import { durableBackendsForFile } from './shared-pglite.js';
import { untilTurn } from './until-turn.js';
import { worldAgent } from './world.js';

const DAY = 24 * 3_600_000;
const db = durableBackendsForFile();

/** A store whose prunes are recorded; `failNext` makes the next one throw. */
function recordedPrunes(inner: TurnStore) {
  const calls: PruneOptions[] = [];
  const waiters: (() => void)[] = [];
  const state = { failNext: false };
  const store: TurnStore = {
    ...inner,
    async prune(options) {
      calls.push(options);
      for (const wake of waiters.splice(0)) wake();
      if (state.failNext) throw ((state.failNext = false), new DurableStoreError('the database went away'));
      return inner.prune(options);
    },
  };
  const called = () => (calls.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)));
  return { store, calls, state, called };
}

describe('pruneTurns: a prune at once, then every everyMs; a failed prune does not stop it', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('prunes at subscribe and on each tick, reports a failure to onError and goes on, and stops on unsubscribe', async () => {
    vi.useFakeTimers();
    let now = 1_700_000_000_000;
    const inner = memoryTurnStore({ now: () => now });
    const { store, calls, state } = recordedPrunes(inner);
    await store.createTurn({ turnId: 'tick-1', agent: 'a', input: { message: 'hi', ingress: { channel: 'cli', turnId: 'tick-1' } }, status: 'running' });
    await store.updateTurn('tick-1', 1, { status: 'done' });
    const results: PruneResult[] = [];
    const errors: unknown[] = [];
    const pruning = pruneTurns(store, { olderThanMs: DAY, everyMs: 60_000, onError: (e) => errors.push(e) }).subscribe((r) => results.push(r));
    await vi.advanceTimersByTimeAsync(0);
    expect(results).toEqual([{ turns: 0 }]); // tick-1 is young
    now += DAY + 1;
    state.failNext = true;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(errors).toEqual([expect.any(DurableStoreError)]);
    expect(await store.getTurn('tick-1')).toBeDefined();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(results).toEqual([{ turns: 0 }, { turns: 1 }]);
    expect(await store.getTurn('tick-1')).toBeUndefined();
    expect(calls).toEqual([{ olderThanMs: DAY }, { olderThanMs: DAY }, { olderThanMs: DAY }]);
    pruning.unsubscribe();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(3);
  });

  it('skips a tick that comes while a prune still runs', async () => {
    vi.useFakeTimers();
    const inner = memoryTurnStore();
    let release!: () => void;
    let running = 0;
    const store: TurnStore = {
      ...inner,
      async prune(options) {
        running += 1;
        if (running === 1) await new Promise<void>((resolve) => (release = resolve));
        return inner.prune(options);
      },
    };
    const results: PruneResult[] = [];
    const pruning = pruneTurns(store, { everyMs: 1_000 }).subscribe((r) => results.push(r));
    await vi.advanceTimersByTimeAsync(3_500); // ticks at 1, 2 and 3 s find the first prune running
    expect(running).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(running).toBe(2);
    expect(results).toEqual([{ turns: 0 }, { turns: 0 }]);
    pruning.unsubscribe();
  });

  it('defaults to 7 days, and refuses a bad duration with a ConfigurationError at the call', () => {
    expect(DEFAULT_RETENTION_MS).toBe(7 * DAY);
    const store = memoryTurnStore();
    for (const options of [{ everyMs: 0 }, { everyMs: -5 }, { everyMs: Infinity }, { olderThanMs: -1 }, { olderThanMs: Number.NaN }]) {
      expect(() => pruneTurns(store, options)).toThrow(ConfigurationError);
    }
  });
});

describe("turnQueue prunes in each process that works, unless retention is false", () => {
  it('work() prunes at once with the 7-day default, or the retention given; stop() ends it', async () => {
    const backend = await postgresQueueBackend(db());
    try {
      for (const [name, retention, olderThanMs] of [['rtl-prune-default', undefined, DEFAULT_RETENTION_MS], ['rtl-prune-custom', { olderThanMs: 60_000 }, 60_000]] as const) {
        const { store, calls, called } = recordedPrunes(backend.store);
        const queue = await turnQueue(backend.boss, { name, ...(retention ? { retention } : {}) });
        await queue.work(durableAgent(worldAgent(), { store, onReady: queue.enqueue }), { concurrency: 1 });
        await called();
        await queue.stop();
        expect(calls).toEqual([{ olderThanMs }]);
      }
    } finally {
      await backend.close();
    }
  }, 60_000);

  it('with retention false, a worker that ran a turn to its end never pruned', async () => {
    const backend = await postgresQueueBackend(db());
    try {
      const { store, calls } = recordedPrunes(backend.store);
      const name = 'rtl-prune-off';
      const queue = await turnQueue(backend.boss, { name, retention: false, wakeUps: backend.wakeUps });
      const durable = durableAgent(worldAgent(), { store, onReady: queue.enqueue });
      await queue.work(durable, { concurrency: 1, pollingIntervalSeconds: 3600 });
      await backend.emptyFetches(name, 1); // its slot looked once and sleeps
      const turnId = await durable.submit({ message: 'plain off', conversationId: 'prune-off' });
      await untilTurn(backend.store, () => turnId, (t) => t.status === 'done');
      await backend.emptyFetches(name, 2); // the slot completed the job and looked again
      await queue.stop();
      expect(calls).toEqual([]);
    } finally {
      await backend.close();
    }
  }, 60_000);
});

