import type { StoredTurn, TurnStore } from '../../src/durable/index.js';

/** Resolves with the turn once `accept` holds for it: checked now and on every change the store reports (no sleeps). */
export function untilTurn(store: TurnStore, turnId: () => string | undefined, accept: (turn: StoredTurn) => boolean): Promise<StoredTurn> {
  return new Promise((resolve, reject) => {
    let done = false;
    let checking = false;
    let again = false;
    const check = async (): Promise<void> => {
      if (checking) return void (again = true);
      checking = true;
      try {
        do {
          again = false;
          const id = turnId();
          const turn = id === undefined ? undefined : await store.getTurn(id);
          if (!done && turn && accept(turn)) {
            done = true;
            stop();
            resolve(turn);
          }
        } while (again && !done);
      } catch (err) {
        stop();
        reject(err);
      } finally {
        checking = false;
      }
    };
    const stop = store.watch(() => void check());
    void check();
  });
}

/** The slot states of a turn's checkpoint, e.g. ['done', 'running', 'done']. */
export const slotStates = (turn: StoredTurn): string[] => turn.snapshot?.batch?.slots.map((s) => s.state) ?? [];
