import { sourceOf } from './profile-summary.js';

/** A node of V8's sampling heap profile (`HeapProfiler.stopSampling`). */
interface SampledNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampledNode[];
}

/**
 * Bytes a sampling heap profile saw allocated, by allocating function: `name  file:line`, with
 * paths shortened to the package or to src/ and bench/ (a line of the bench's build of the library
 * is named by the source file it came from and the build's line). A native frame (no file, e.g. `next` or
 * `Map`) is named with the function that called it (`next <- Subscription.unsubscribe …`), so
 * the cost of a builtin shows where it was paid. Used by alloc-server.ts.
 *
 * @example
 * ```ts
 * const { profile } = await session.post('HeapProfiler.stopSampling');
 * const { total, bySite } = allocationBySite(profile.head);
 * ```
 */
export function allocationBySite(head: unknown): { total: number; bySite: Map<string, number> } {
  const bySite = new Map<string, number>();
  let total = 0;
  const walk = (node: SampledNode, caller: string): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    const file = sourceOf(url, lineNumber);
    const here = `${name}  ${file.endsWith('.ts') ? `${file} (build line ${lineNumber + 1})` : `${file}:${lineNumber + 1}`}`;
    const site = url === '' && caller !== '' ? `${name} <- ${caller}` : here;
    total += node.selfSize;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, url === '' ? caller : here);
  };
  walk(head as SampledNode, '');
  return { total, bySite };
}

/**
 * The `top` sites, most bytes first, one line each: bytes per `unit` (a call), then the site.
 *
 * @example
 * ```ts
 * console.log(topSites(bySite, turns * n, 25));
 * ```
 */
export function topSites(bySite: ReadonlyMap<string, number>, units: number, top: number): string {
  return [...bySite]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([site, bytes]) => `${(bytes / units).toFixed(0).padStart(6)} B/call  ${site}`)
    .join('\n');
}
