import { SnapshotMismatchError } from '../core/errors.js';
import type { OutputSchema } from '../core/structured-output.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import { outputFingerprint } from './output-fingerprint.js';

/**
 * Checks that a resume passes the output schema its turn started with (a schema is code: a
 * snapshot holds only its fingerprint). A turn that had one resumed without it, one that had none
 * resumed with one, or a schema whose JSON Schema or name changed fails closed with a
 * `SnapshotMismatchError`, before anything runs and before the snapshot is used up.
 *
 * @example
 * ```ts
 * checkOutput(checked.snapshot, turn.output); // throws when `resume(…, { output })` is missing or another schema
 * ```
 */
export function checkOutput(snapshot: TurnSnapshot, output: OutputSchema | undefined): void {
  const recorded = snapshot.output;
  if (recorded === undefined && output === undefined) return;
  if (output === undefined) {
    throw new SnapshotMismatchError('The turn was started with an output schema: resume it with the same one (`resume(snapshot, { decisions, output })`).');
  }
  if (recorded === undefined) throw new SnapshotMismatchError('The turn was started without an output schema: resume it without one.');
  if (recorded.fingerprint !== outputFingerprint(output.format)) {
    throw new SnapshotMismatchError('The output schema is not the one the turn was started with.');
  }
}
