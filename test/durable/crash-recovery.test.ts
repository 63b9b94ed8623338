import { lastValueFrom, toArray, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TurnEvent, TurnEventOf } from '../../src/index.js';
import { durableAgent, type TurnStore } from '../../src/durable/index.js';
import { durableBackendsForFile, storeBackends } from './shared-pglite.js';
import { slotStates, untilTurn } from './until-turn.js';
import { worldAgent } from './world.js';

type Done = TurnEventOf<'done'>;
const collect = (events$: import('rxjs').Observable<TurnEvent>) => lastValueFrom(events$.pipe(toArray()));
const never = (_key: string, signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

const backends = storeBackends(durableBackendsForFile());

/**
 * A worker "dies" in the middle of a tool: its subscription ends with no chance to write
 * anything more (as a killed process), the turn's row still says `running` with the journal's
 * checkpoint. Another worker takes the turn over.
 */
async function crashIn(store: TurnStore, message: string, until: (states: string[]) => boolean): Promise<{ turnId: string; firstRan: string[] }> {
  const firstRan: string[] = [];
  const first = durableAgent(worldAgent({ ran: firstRan, slowDone: never }), { store });
  const turnId = `turn-${message.replace(' ', '-')}`;
  const sub: Subscription = first.run({ message, conversationId: `conv-${message}`, ingress: { channel: 'cli', turnId } }).subscribe();
  await untilTurn(store, () => turnId, (t) => until(slotStates(t)));
  sub.unsubscribe();
  return { turnId, firstRan };
}

describe.each(backends)('a worker that dies mid-tool, on %s', (_name, open) => {
  it('leaves that slot interrupted, keeps every finished result, and runs nothing twice', async () => {
    const store = await open();
    try {
      const { turnId, firstRan } = await crashIn(store, 'crash now', (s) => s.join() === 'done,running,done');
      expect(firstRan).toEqual(['lookup a', 'slow k', 'lookup z']);
      expect((await store.getTurn(turnId))?.status).toBe('running');
      const laterRan: string[] = [];
      const later = durableAgent(worldAgent({ ran: laterRan }), { store });
      expect(await collect(later.continue(turnId))).toEqual([]); // without takeOver, a running turn is left alone
      const done = (await collect(later.continue(turnId, { takeOver: true }))).pop() as Done;
      expect(done.reason).toBe('final');
      expect(laterRan).toEqual([]); // nothing ran again
      const results = done.history.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(results).toEqual(['value of a', '[interrupted before this tool produced a result]', 'value of z']);
      const turn = await store.getTurn(turnId);
      expect(turn).toMatchObject({ status: 'done', attempt: 2 });
    } finally {
      await store.close();
    }
  });

  it('runs an idempotent tool again instead', async () => {
    const store = await open();
    try {
      const { turnId, firstRan } = await crashIn(store, 'repeat now', (s) => s.join() === 'done,running');
      expect(firstRan).toEqual(['lookup a', 'again k']);
      const laterRan: string[] = [];
      const done = (await collect(durableAgent(worldAgent({ ran: laterRan }), { store }).continue(turnId, { takeOver: true }))).pop() as Done;
      expect(laterRan).toEqual(['again k']);
      expect(done.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['value of a', 'again k done']);
    } finally {
      await store.close();
    }
  });

  it('fences the old worker: once taken over, its writes are refused', async () => {
    const store = await open();
    try {
      const { turnId } = await crashIn(store, 'crash fenced', (s) => s.join() === 'done,running,done');
      const turn = (await store.getTurn(turnId))!;
      const claimed = await store.claimTurn(turnId, 'new owner', ['running']);
      expect(claimed?.attempt).toBe(turn.attempt + 1);
      expect(await store.updateTurn(turnId, turn.attempt, { status: 'done' })).toBe(false);
      expect((await store.getTurn(turnId))?.status).toBe('running');
    } finally {
      await store.close();
    }
  });
});
