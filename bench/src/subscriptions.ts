import { Observable } from 'rxjs';
import * as lib from '../../src/index.js';
import * as testing from '../../src/testing/index.js';
import { serverOurs } from './server-systems.js';
import { IterationClock, Samples } from './server-workload.js';

/**
 * How many Observables one server-regime turn (3 iterations × 3 calls, then the answer) subscribes
 * to, by the call site that subscribes, from the sources (no build):
 *
 *   npx tsx bench/src/subscriptions.ts
 *   DEPTH=3 npx tsx bench/src/subscriptions.ts   # each site with its callers
 *
 * Each subscription costs its Subscriber (an `OperatorSubscriber` with its handler closures for
 * an operator), a finalizer on its parent and a removal when it ends.
 */
const system = serverOurs({ lib, testing } as unknown as Parameters<typeof serverOurs>[0]);
const conversation = (await system.prepare()).conversation('c', new IterationClock(new Samples()));
await conversation.turn(); // lazy set-up out of the count
const depth = Number(process.env.DEPTH ?? 1);
const sites = new Map<string, number>();
const subscribe = Observable.prototype.subscribe;
Observable.prototype.subscribe = function (this: Observable<unknown>, ...args: unknown[]) {
  const frames = (new Error().stack ?? '').split('\n').slice(2, 2 + depth);
  // each frame's path cut to what follows src/ (or RxJS's internal/)
  const site = frames.map((line) => line.trim().replace(/\(.*\/(src|rxjs\/dist\/cjs\/internal)\//, '(')).join(' < ') || '?';
  sites.set(site, (sites.get(site) ?? 0) + 1);
  return subscribe.apply(this, args as Parameters<typeof subscribe>);
} as typeof subscribe;
await conversation.turn();
Observable.prototype.subscribe = subscribe;
let total = 0;
for (const [site, n] of [...sites].sort((x, y) => y[1] - x[1])) {
  total += n;
  console.log(`${String(n).padStart(4)}  ${site}`);
}
console.log(`${total} subscriptions in one turn`);
