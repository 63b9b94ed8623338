/**
 * Growth checks that do not depend on how fast the machine is.
 *
 * A time threshold ("parses 1 MB in under 50 ms") fails on a slow or busy machine and passes a
 * quadratic algorithm on a fast one. A ratio does neither: the same code, measured in the same
 * process a moment apart, on an input of size n and one of size 16n. Linear work grows about 16x
 * (fixed per-call overhead only lowers the ratio); quadratic work grows 256x. The bound of 64
 * leaves 4x of headroom for noise on the linear side and is still 4x below quadratic.
 *
 * CPU time (`process.cpuUsage`, user + system of this process) rather than wall-clock time, so
 * other processes on a shared machine do not count; the minimum of several repetitions, so a
 * garbage collection or a descheduled slice in one of them does not either.
 */
export const GROWTH = 16;
export const LINEAR_BOUND = 64;

/** The smallest CPU time (µs) `fn` took over `repeats` runs. */
export function cpuMicros(fn: () => void, repeats = 5): number {
  let best = Infinity;
  for (let r = 0; r < repeats; r++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    best = Math.min(best, used.user + used.system);
  }
  return best;
}

/**
 * How much more CPU `run(make(base * GROWTH))` takes than `run(make(base))`, from the four
 * doublings in between (base, 2·base, … 16·base): the geometric mean of the two smallest cost
 * ratios of one doubling, raised to the fourth power. Linear work gives about 16 and quadratic
 * work 256, as a plain ratio would, since every doubling of quadratic work costs ~4x; but a
 * machine whose cost per character steps up between two sizes moves one or two doublings, not the
 * two smallest: on one CI machine the parser's cost per character goes 0.7 → 3.5 ns between 64
 * and 256 KB and then stays flat to 1 MB, and `JSON.parse` of an object with many keys goes 12 →
 * 50 ns at 64 KB, back to 27 at 128 KB and to 31 at 512 KB (`V8`'s dictionary objects and
 * collections), which put a plain 16x ratio at 64–73 against the bound of 64. Each size is timed
 * over as many back-to-back runs as make up GROWTH·base characters, so no measurement is a few
 * microseconds against the clock's resolution. A result over LINEAR_BOUND is measured again, up
 * to three times in all, and the smallest counts: superlinear work is over the bound every time,
 * while a collection or a busy neighbour that inflated one measurement does not repeat.
 */
export function cpuGrowth<T>(run: (input: T) => unknown, make: (chars: number) => T, base: number): number {
  const inputs = [1, 2, 4, 8, 16].map((k) => ({ input: make(base * k), runs: GROWTH / k }));
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best >= LINEAR_BOUND; attempt++) best = Math.min(best, growthOnce(run, inputs));
  return best;
}

function growthOnce<T>(run: (input: T) => unknown, inputs: readonly { input: T; runs: number }[]): number {
  for (const { input } of inputs) run(input); // compiled code and inline caches for every size, untimed
  const perRun = inputs.map(({ input, runs }) =>
    Math.max(
      cpuMicros(() => {
        for (let k = 0; k < runs; k++) run(input);
      }) / runs,
      0.01,
    ),
  );
  const doublings = perRun.slice(1).map((cost, k) => cost / perRun[k]).sort((a, b) => a - b);
  return (doublings[0] * doublings[1]) ** 2; // the two smallest doublings, their geometric mean to the fourth power
}

export const fill = (chars: number, unit: string, prefix = '', suffix = ''): string =>
  prefix + unit.repeat(Math.max(1, Math.ceil((chars - prefix.length - suffix.length) / unit.length))) + suffix;
