import { concatMap, from, lastValueFrom, map, mergeMap, of, toArray } from 'rxjs';
import { FINAL_TEXT, scriptedCalls, type PreparedSystem, type System } from '../workload.js';
import { floor, runCall } from './floor.js';

/**
 * The floor's turn with the design card's shape in RxJS's own operators and nothing else: the
 * calls prepared one at a time (`concatMap`), run under a cap of 8 (`mergeMap`), put back in slot
 * order. What any loop built from RxJS operators pays at least: the post-GC regime reads ours
 * against it as well as against the floor.
 */
export const floorRxjs: System = {
  name: 'floor + rxjs',
  note: 'the floor with from + concatMap(of) + mergeMap(run, 8) + toArray, results put back in slot order',
  prepare(n): PreparedSystem {
    const calls = scriptedCalls(n);
    const history: unknown[] = [];
    const run = (k: number) => from(runCall(calls[k])).pipe(map((content) => ({ k, content })));
    return {
      async turn() {
        history.length = 0;
        history.push({ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: calls });
        const done = await lastValueFrom(
          from(calls.keys()).pipe(
            concatMap((k) => of(k)),
            mergeMap(run, 8),
            toArray(),
          ),
        );
        const results = new Array<string>(done.length);
        for (const { k, content } of done) results[k] = content;
        for (let k = 0; k < results.length; k++) history.push({ role: 'tool', tool_call_id: calls[k].id, content: results[k] });
        history.push({ role: 'assistant', content: FINAL_TEXT });
      },
    };
  },
  cancelledTurn: floor.cancelledTurn,
};
