import { fixed, type DurableResult } from '../durable.js';
import type { EngineResult } from './engines.js';

const p50p99 = (p: { p50: number; p99: number } | undefined) => (p ? `${fixed(p.p50, 1)} / ${fixed(p.p99, 1)}` : '–');

/**
 * The engine comparison's markdown table: one row an engine, and `today` (the durable bench's
 * figures, the library's durable turns through pg-boss with their store) first when it ran.
 */
export function enginesTable(results: readonly EngineResult[], today?: DurableResult): string {
  const header = [
    '| engine | turns/s | ÷ ceiling | decision → resumed, light load p50 / p99 (ms) | under load p50 / p99 (ms) | commits a turn | rows written a turn | CPU a turn, Node + PostgreSQL (ms) | failures |',
    '|---|---:|---:|---|---|---:|---:|---|---|',
  ];
  const rows = results.map((r) =>
    r.unavailable
      ? `| ${r.name} | – | – | – | – | – | – | – | not run: ${r.unavailable} |`
      : `| ${r.name} | ${fixed(r.turnsPerSecond!, 1)} | ${fixed((100 * r.turnsPerSecond!) / r.ceiling!, 2)} % of ${fixed(r.ceiling!, 0)} | ${p50p99(r.lightResume)} | ${p50p99(r.resume)} | ${fixed(r.commits!, 1)} | ${fixed(r.rowsWritten!, 1)} | ${fixed(r.cpu!.node, 2)} + ${r.cpu!.postgres === undefined ? 'n/a' : fixed(r.cpu!.postgres, 2)} | ${r.failures.length === 0 ? 'none' : r.failures.slice(0, 3).join('; ')} |`,
  );
  if (today) {
    const t = today;
    const writes = t.perTurn.storeWrites + t.perTurn.queueWrites;
    rows.unshift(
      `| durableAgent + turnQueue (pg-boss), with the store: today | ${fixed(t.turnsPerSecond, 1)} | ${fixed((100 * t.turnsPerSecond) / t.ceiling, 2)} % of ${fixed(t.ceiling, 0)} | ${p50p99(t.lightResume)} | ${p50p99(t.resume)} | ${fixed(t.commits, 1)} | ${fixed(t.rowsWritten, 1)} (${fixed(writes, 1)} writing statements) | ${fixed(t.cpu.node, 2)} + ${t.cpu.postgres === undefined ? 'n/a' : fixed(t.cpu.postgres, 2)} | ${t.failures.length === 0 ? 'none' : t.failures.slice(0, 3).join('; ')} |`,
    );
  }
  return [...header, ...rows].join('\n');
}
