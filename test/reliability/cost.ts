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
 * How much more CPU `run(large)` takes than `run(small)`: `large` should be GROWTH times
 * `small` in size. The small side is timed over several back-to-back runs (divided back), so it
 * stays well above the clock's resolution. A ratio over LINEAR_BOUND is measured again, up to
 * three times in all, and the smallest counts: superlinear work is over the bound every time,
 * while a collection or a busy neighbour that inflated one measurement (68 once, in a CI run
 * where 14–20 is usual) does not repeat.
 */
export function cpuGrowth<T>(run: (input: T) => unknown, small: T, large: T): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best >= LINEAR_BOUND; attempt++) best = Math.min(best, growthOnce(run, small, large));
  return best;
}

function growthOnce<T>(run: (input: T) => unknown, small: T, large: T): number {
  const batch = 8;
  const smallCost = cpuMicros(() => {
    for (let k = 0; k < batch; k++) run(small);
  }) / batch;
  const largeCost = cpuMicros(() => void run(large), 3);
  return largeCost / Math.max(smallCost, 1);
}

/** `unit` repeated to at least `chars` characters, between an optional prefix and suffix. */
export const fill = (chars: number, unit: string, prefix = '', suffix = ''): string =>
  prefix + unit.repeat(Math.max(1, Math.ceil((chars - prefix.length - suffix.length) / unit.length))) + suffix;
