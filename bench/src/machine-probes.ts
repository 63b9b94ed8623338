/**
 * Two probes of the machine itself, touching no JavaScript object a system made: whether the core
 * is slow right now, and whether memory is. On this VM memory can answer 2–3x slower for seconds
 * at a time while the core's speed stays the same, on one virtual CPU and not the other
 * (bench/RESULTS.md, "What the bench corrects for"); a turn that touches more memory per call suffers more from it.
 */

const array = new Float64Array(1 << 20);
// written once, so that each page is the process's own (an untouched page reads as the kernel's one page of zeros)
for (let i = 0; i < array.length; i++) array[i] = i;
let sink = 0;

/** Milliseconds of 3 million dependent multiply-adds: the core's speed, no memory traffic. */
export function arithmeticProbe(): number {
  const t0 = process.hrtime.bigint();
  let x = 1;
  for (let i = 0; i < 3e6; i++) x = (x * 1103515245 + 12345) | 0;
  sink ^= x;
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Nanoseconds per read of 524,288 reads scattered over an 8 MB array (more than a core's own caches hold). */
export function memoryProbe(): number {
  const t0 = process.hrtime.bigint();
  let s = 0;
  const mask = array.length - 1;
  for (let r = 0; r < 4; r++) for (let i = 0; i < array.length; i += 8) s += array[(i * 40503) & mask];
  sink ^= s;
  return Number(process.hrtime.bigint() - t0) / 524_288;
}
