import { lastValueFrom, tap } from 'rxjs';
import type * as Lib from '../../../src/index.js';
import type * as Testing from '../../../src/testing/index.js';
import { durableBenchAgent } from '../durable-bench-agent.js';
import type { TurnWork } from './engine.js';

/**
 * The turn every engine carries: the durable bench's agent (one `write_note` call that needs an
 * approval, then 'noted') run with `agent.run` until it parks, and its sealed snapshot resumed
 * with `agent.resume`. Any worker process resumes any turn: they share the snapshot key.
 *
 * @example
 * ```ts
 * const work = turnWork(lib, testing);
 * const { snapshot, requestId } = await work.start('t1');
 * await work.finish('t1', snapshot, requestId, 'yes', () => undefined); // 'done'
 * ```
 */
export function turnWork(lib: typeof Lib, testing: typeof Testing): TurnWork {
  const agent = durableBenchAgent(lib, testing);
  return {
    async start(turnId) {
      const done = await lastValueFrom(agent.run({ message: `note this (${turnId})` }));
      if (done.type !== 'done' || done.reason !== 'paused' || !done.snapshot || !done.pending?.[0]) {
        throw new Error(`turn ${turnId} did not park (${done.type === 'done' ? done.reason : done.type})`);
      }
      return { snapshot: done.snapshot, requestId: done.pending[0].requestId };
    },
    async finish(turnId, snapshot, requestId, decision, onFirstEvent) {
      let first = true;
      const events$ = agent.resume(snapshot as Lib.TurnSnapshot, { decisions: { [requestId]: decision }, decidedBy: 'operator' });
      const done = await lastValueFrom(events$.pipe(tap(() => first && ((first = false), onFirstEvent()))));
      return done.type === 'done' && done.reason === 'final' ? 'done' : 'failed';
    },
  };
}
