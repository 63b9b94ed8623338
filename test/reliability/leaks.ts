import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const probe = fileURLToPath(new URL('./leak-probe.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** What `leak-probe.ts` reports. */
export interface LeakReport {
  readonly turns: number;
  readonly heapGrowth: number;
  readonly dones: number;
  readonly notCancelled: number;
  readonly leftoverOnOwnSignals: number;
  readonly leftoverOnShared: number;
  readonly liveTimers: number;
  readonly activeTimeouts: number;
  readonly toolSignals: number;
  readonly toolSignalsNotAborted: number;
  readonly promptsAsked: number;
  readonly promptsWithdrawn: number;
}

/**
 * Runs the probe in its own Node process (`--expose-gc`, nothing else in its heap) and parses
 * its report.
 */
export async function runLeakProbe(turns: number): Promise<LeakReport> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', probe, String(turns)], {
    cwd: root,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as LeakReport;
}

/** Heap growth allowed between the warm-up and the end: a leaked turn holds at least 1 KB. */
export const HEAP_BOUND = 2 * 1024 * 1024;

/** The leak checks as a vitest block (the stress run passes 10x the turns). */
export function describeLeaks(turns: number, timeoutMs: number): void {
  describe(`after ${turns.toLocaleString('en')} cancelled turns nothing is left behind`, () => {
    let report: LeakReport;
    it(
      'the probe ran every turn to its cancellation',
      async () => {
        report = await runLeakProbe(turns);
        const third = Math.floor(turns / 3);
        expect(report.turns).toBe(turns);
        expect(report.dones).toBe(turns - 2 * third);
        expect(report.notCancelled).toBe(0);
        expect(report.promptsAsked).toBe(third);
      },
      timeoutMs,
    );
    it("no listener remains on the callers' AbortSignals (per-turn signals and one shared by thousands of turns)", () => {
      expect([report.leftoverOnOwnSignals, report.leftoverOnShared]).toEqual([0, 0]);
    });
    it('no timer is pending: tool timeouts and approval timeouts were all cleared', () => {
      expect([report.liveTimers, report.activeTimeouts]).toEqual([0, 0]);
    });
    it('every running tool saw its signal abort and every pending prompt was withdrawn', () => {
      expect(report.toolSignals).toBeGreaterThan(0);
      expect(report.toolSignalsNotAborted).toBe(0);
      expect(report.promptsWithdrawn).toBe(report.promptsAsked);
    });
    it('the heap is flat: under 2 MB of growth from the warm-up to the last turn (a leaked turn holds 1 KB or more)', () => {
      expect(report.heapGrowth).toBeLessThan(HEAP_BOUND);
    });
  });
}
