import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TurnEvent, TurnEventOf } from '../../src/index.js';
import { DurableStoreError, durableAgent, type TurnStore } from '../../src/durable/index.js';
import { durableBackendsForFile, instanceBackends } from './shared-pglite.js';
import { slotStates, untilTurn } from './until-turn.js';
import { worldAgent } from './world.js';

/**
 * Cancel and steering from any instance: the worker instance runs the turn, the app instance
 * (another store on the same data) sends `cancel` or `steer`, and the worker acts on it.
 */
type Done = TurnEventOf<'done'>;
const collect = (events$: Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const toolContents = (done: Done) => done.history.filter((m) => m.role === 'tool').map((m) => m.content);
const INTERRUPTED = '[interrupted before this tool produced a result]';

/** A slow tool that ends when the test releases it, or when its slot is closed. */
function slowTools() {
  const releases: (() => void)[] = [];
  const slowDone = (_key: string, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      releases.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  return { slowDone, release: () => releases.splice(0).forEach((r) => r()) };
}

/** The store, telling `onSteering` each time a read of the controls took steering messages. */
function tellingSteering(store: TurnStore, onSteering: (messages: readonly string[]) => void): TurnStore {
  return {
    ...store,
    async takeControls(turnId, attempt) {
      const taken = await store.takeControls(turnId, attempt);
      if (taken.steering.length > 0) onSteering(taken.steering);
      return taken;
    },
  };
}

const backends = instanceBackends(durableBackendsForFile());

describe.each(backends)('cancel and steering from another instance, on %s', (_name, open) => {
  it('a cancel stops the running turn on the worker: finished results kept, the running slot interrupted', async () => {
    const [workerStore, appStore] = await open();
    try {
      const ran: string[] = [];
      const { slowDone } = slowTools();
      const worker = durableAgent(worldAgent({ ran, slowDone }), { store: workerStore, owner: 'worker' });
      const app = durableAgent(worldAgent(), { store: appStore, owner: 'app' });
      const turnId = 'cancel-running';
      const events = collect(worker.run({ message: 'crash now', conversationId: 'c-cancel', ingress: { channel: 'cli', turnId } }));
      await untilTurn(appStore, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
      expect(await app.cancel(turnId, 'alice')).toEqual({ status: 'requested' });
      const done = (await events).pop() as Done;
      expect(done.reason).toBe('cancelled');
      expect(toolContents(done)).toEqual(['value of a', INTERRUPTED, 'value of z']);
      expect(ran).toEqual(['lookup a', 'slow k', 'lookup z']);
      expect(await appStore.getTurn(turnId)).toMatchObject({ status: 'done', outcome: { reason: 'cancelled' }, owner: 'worker', attempt: 1 });
      expect(await appStore.history('c-cancel')).toEqual(done.history);
      expect(await app.cancel(turnId)).toEqual({ status: 'ended' });
    } finally {
      await Promise.all([workerStore.close(), appStore.close()]);
    }
  });

  it('a parked turn cancelled from another instance ends cancelled without running anything', async () => {
    const [workerStore, appStore] = await open();
    try {
      const ran: string[] = [];
      const worker = durableAgent(worldAgent({ ran }), { store: workerStore, owner: 'worker' });
      const parked = (await collect(worker.run({ message: 'note it', conversationId: 'c-parked' }))).pop() as Done;
      expect(parked.reason).toBe('paused');
      const turnId = parked.snapshot!.turnId;
      const app = durableAgent(worldAgent({ ran }), { store: appStore, owner: 'app' });
      expect(await app.cancel(turnId, 'alice')).toEqual({ status: 'cancelled' });
      const turn = await workerStore.getTurn(turnId);
      expect(turn).toMatchObject({ status: 'done', outcome: { reason: 'cancelled' }, pending: [] });
      expect(ran).toEqual(['lookup a']); // the first round's read, before the park; nothing after
      expect(await appStore.auditLog({ turnId })).toEqual([]); // no decision was made or recorded
      const history = await appStore.history('c-parked');
      expect(history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['value of a', INTERRUPTED, INTERRUPTED]);
      expect(await app.decide(turnId, parked.pending![0].requestId, 'yes')).toEqual({ status: 'not-pending' });
      expect(await collect(worker.continue(turnId))).toEqual([]);
    } finally {
      await Promise.all([workerStore.close(), appStore.close()]);
    }
  });

  it('a queued turn cancelled from another instance ends cancelled; a worker then finds nothing to do', async () => {
    const [workerStore, appStore] = await open();
    try {
      const ran: string[] = [];
      const app = durableAgent(worldAgent(), { store: appStore, owner: 'app' });
      const turnId = await app.submit({ message: 'plain one', conversationId: 'c-queued' });
      expect(await app.cancel(turnId)).toEqual({ status: 'cancelled' });
      expect(await workerStore.getTurn(turnId)).toMatchObject({ status: 'done', outcome: { reason: 'cancelled', text: '' } });
      expect(await collect(durableAgent(worldAgent({ ran }), { store: workerStore }).continue(turnId, { takeOver: 'expired' }))).toEqual([]);
      expect(ran).toEqual([]);
    } finally {
      await Promise.all([workerStore.close(), appStore.close()]);
    }
  });

  it('refuses what is not a turn to cancel or steer, and records nothing for an ended one', async () => {
    const [store] = await open();
    try {
      const app = durableAgent(worldAgent(), { store });
      expect(await app.cancel('no such turn')).toEqual({ status: 'ended' });
      expect(await app.cancel('a\u0000b')).toEqual({ status: 'invalid' });
      expect(await app.steer('no such turn', 'hello')).toEqual({ status: 'ended' });
      expect(await app.steer('t', 42 as never)).toEqual({ status: 'invalid' });
      const done = (await collect(app.run({ message: 'plain done', conversationId: 'c-ended' }))).pop() as Done;
      const turnId = (await store.listTurns({ conversationId: 'c-ended' }))[0].turnId;
      expect(done.reason).toBe('final');
      expect(await app.steer(turnId, 'too late')).toEqual({ status: 'ended' });
      expect(await store.control(turnId, { kind: 'cancel', by: 'alice' })).toBeUndefined();
      // the store itself refuses what is not a control or a lease, on every backend alike
      await expect(store.control(turnId, { kind: 'steer', message: 42, by: 'bob' } as never)).rejects.toBeInstanceOf(DurableStoreError);
      await expect(store.control(turnId, { kind: 'pause', by: 'bob' } as never)).rejects.toBeInstanceOf(DurableStoreError);
      await expect(store.claimTurn(turnId, 'w', ['done'], { leaseMs: -5 })).rejects.toBeInstanceOf(DurableStoreError);
      await expect(store.renewLease(turnId, 1, 0)).rejects.toBeInstanceOf(DurableStoreError);
    } finally {
      await store.close();
    }
  });

  it('a steering message from another instance joins the running turn at its next iteration', async () => {
    const [workerStore, appStore] = await open();
    try {
      const { slowDone, release } = slowTools();
      let took!: (messages: readonly string[]) => void;
      const taken = new Promise<readonly string[]>((resolve) => (took = resolve));
      const worker = durableAgent(worldAgent({ slowDone }), { store: tellingSteering(workerStore, took), owner: 'worker' });
      const app = durableAgent(worldAgent(), { store: appStore, owner: 'app' });
      const turnId = 'steer-running';
      const events = collect(worker.run({ message: 'crash now', conversationId: 'c-steer', ingress: { channel: 'cli', turnId } }));
      await untilTurn(appStore, () => turnId, (t) => slotStates(t).join() === 'done,running,done');
      expect(await app.steer(turnId, 'plain instead', 'bob')).toEqual({ status: 'sent', turnStatus: 'running' });
      expect(await taken).toEqual(['plain instead']);
      release(); // the round ends; the next iteration starts with the message
      const done = (await events).pop() as Done;
      expect(done).toMatchObject({ reason: 'final', text: 'plain' }); // the script the steering message asked for
      const users = done.history.filter((m) => m.role === 'user').map((m) => m.content);
      expect(users).toEqual(['crash now', 'plain instead']);
      expect(await workerStore.takeControls(turnId, 1)).toEqual({ steering: [] }); // taken once
    } finally {
      await Promise.all([workerStore.close(), appStore.close()]);
    }
  });

  it('a steering message sent to a parked turn joins it when it resumes, on whichever instance', async () => {
    const [workerStore, appStore] = await open();
    try {
      const worker = durableAgent(worldAgent(), { store: workerStore, owner: 'worker' });
      const app = durableAgent(worldAgent(), { store: appStore, owner: 'app' });
      const parked = (await collect(worker.run({ message: 'note it', conversationId: 'c-steer-parked' }))).pop() as Done;
      const turnId = parked.snapshot!.turnId;
      expect(await app.steer(turnId, 'plain after that')).toEqual({ status: 'sent', turnStatus: 'parked' });
      await app.decide(turnId, parked.pending![0].requestId, 'yes', 'alice');
      const done = (await collect(worker.continue(turnId))).pop() as Done;
      expect(done).toMatchObject({ reason: 'final', text: 'plain' });
      const users = done.history.filter((m) => m.role === 'user').map((m) => m.content);
      expect(users).toEqual(['note it', 'plain after that']);
      expect(toolContents(done).slice(0, 3)).toEqual(['value of a', 'value of b', 'wrote hello (approved=true)']);
    } finally {
      await Promise.all([workerStore.close(), appStore.close()]);
    }
  });
});

describe('cancel latency across instances, on the test database', () => {
  it('each cancel reaches the worker on the other instance, and the turn ends cancelled (the figures are printed)', async () => {
    const [, , [, open]] = backends;
    const [workerStore, appStore] = await open();
    try {
      const reach: number[] = [];
      const end: number[] = [];
      let aborted = (): void => undefined;
      const slowDone = (_key: string, signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => (aborted(), resolve()), { once: true }));
      const app = durableAgent(worldAgent(), { store: appStore, owner: 'app' });
      for (let i = 0; i < 100; i += 1) {
        const turnId = `latency-${i}`;
        let slowStarted!: () => void;
        const started = new Promise<void>((resolve) => (slowStarted = resolve));
        const reached = new Promise<number>((resolve) => (aborted = () => resolve(performance.now())));
        const worker = durableAgent(worldAgent({ slowDone, onSlowStart: () => slowStarted() }), { store: workerStore, owner: 'worker' });
        const events = collect(worker.run({ message: 'crash timed', conversationId: `c-latency-${i}`, ingress: { channel: 'cli', turnId } }));
        await started;
        const t0 = performance.now();
        expect(await app.cancel(turnId)).toEqual({ status: 'requested' });
        reach.push((await reached) - t0);
        expect(((await events).pop() as Done).reason).toBe('cancelled');
        end.push(performance.now() - t0);
      }
      const at = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.ceil((p / 100) * list.length) - 1)].toFixed(1);
      console.info(
        `cancel across instances on ${workerStore.backend}, 100 turns: reaches the worker's tool p50 ${at(reach, 50)} ms p99 ${at(reach, 99)} ms; turn ended p50 ${at(end, 50)} ms p99 ${at(end, 99)} ms`,
      );
    } finally {
      await Promise.all([workerStore.close(), appStore.close()]);
    }
  }, 120_000);
});
