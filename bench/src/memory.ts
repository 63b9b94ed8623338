import { fmt, hasGc, heapGrowth, kb } from './measure.js';
import type { System } from './workload.js';

export interface MemoryOptions {
  readonly turns: (system: System) => number;
  readonly log: (line: string) => void;
}

/**
 * Memory: many 3-call turns in a row on one agent, heap after collection at the end minus at
 * the start; then the same with every turn cancelled mid-batch (one call done, two waiting).
 */
export async function measureMemory(systems: readonly System[], options: MemoryOptions): Promise<string> {
  if (!hasGc()) return '(memory needs `node --expose-gc`; skipped)';
  const lines = [
    '| system | turns | mode | heap growth (end − start, after GC) | slope (5 checkpoints) | µs/turn |',
    '|---|---:|---|---:|---:|---:|',
  ];
  for (const system of systems) {
    const turns = options.turns(system);
    const prepared = await system.prepare(3);
    const done = await heapGrowth(() => prepared.turn(), turns);
    lines.push(`| ${system.name} | ${turns} | complete | ${kb(done.growth)} | ${fmt(done.slope, 1)} B/turn | ${fmt(done.perTurnUs)} |`);
    options.log(`  ${system.name}: ${turns} complete turns, growth ${kb(done.growth)}`);
    if (system.cancelledTurn) {
      const cancelled = await heapGrowth(system.cancelledTurn, turns);
      lines.push(
        `| ${system.name} | ${turns} | cancelled mid-batch | ${kb(cancelled.growth)} | ${fmt(cancelled.slope, 1)} B/turn | ${fmt(cancelled.perTurnUs)} |`,
      );
      options.log(`  ${system.name}: ${turns} cancelled turns, growth ${kb(cancelled.growth)}`);
    }
  }
  return lines.join('\n');
}
