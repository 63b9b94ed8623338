import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigurationError, SnapshotTamperedError } from '../core/errors.js';
import type { TurnSnapshot } from '../core/turn-snapshot.js';
import type { IterationContext } from '../context/resolved-execution.js';
import { canonicalJson } from '../results/canonical-json.js';

/**
 * The key snapshots are sealed with when the agent names none: random, made once per process, so
 * a snapshot parked here resumes only here. Give every process of a deployment the same
 * `snapshotKey` for a turn to resume on another one.
 */
const PROCESS_KEY: Uint8Array = randomBytes(32);

/** The shortest `snapshotKey` accepted, in bytes. */
export const MIN_SNAPSHOT_KEY_BYTES = 16;

/**
 * A configured `snapshotKey` as bytes (a string is taken as UTF-8); the process's own random key
 * when none is given. A key shorter than 16 bytes is refused with a `ConfigurationError`.
 *
 * @example
 * ```ts
 * const key = snapshotKeyOf(process.env.RTL_SNAPSHOT_KEY);
 * ```
 */
export function snapshotKeyOf(key: string | Uint8Array | undefined): Uint8Array {
  if (key === undefined) return PROCESS_KEY;
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  if (!(bytes instanceof Uint8Array) || bytes.length < MIN_SNAPSHOT_KEY_BYTES) {
    throw new ConfigurationError(`snapshotKey must be a string or bytes of at least ${MIN_SNAPSHOT_KEY_BYTES} bytes.`);
  }
  return bytes;
}

/**
 * The snapshot with its seal: `sequence`, a random `nonce` (what makes this snapshot one of its
 * own, even where another run of the turn parked with the same content) and an HMAC-SHA256
 * under `key` of its canonical JSON (object keys sorted, `seal.mac` left out), so a stored copy
 * that anyone changed fails closed on resume. A seal the snapshot had is replaced.
 *
 * @example
 * ```ts
 * const sealed = sealSnapshot(snapshot, snapshotKeyOf('a key of sixteen bytes or more'), 1);
 * ```
 */
export function sealSnapshot(snapshot: TurnSnapshot, key: Uint8Array, sequence: number): TurnSnapshot {
  const { seal: _old, ...rest } = snapshot;
  const nonce = randomBytes(12).toString('base64url');
  return { ...rest, seal: { sequence, nonce, mac: macOf(rest, sequence, nonce, key) } };
}

/**
 * `sealSnapshot` with the turn's key (the agent's `snapshotKey`, else the process's) and the
 * sequence this run of the turn seals with.
 *
 * @example
 * ```ts
 * return { kind: 'done', snapshot: sealFor(it, nextSnapshot(it, { usage, batch })), … };
 * ```
 */
export function sealFor(it: IterationContext, snapshot: TurnSnapshot): TurnSnapshot {
  return sealSnapshot(snapshot, it.resolved.snapshotKey ?? PROCESS_KEY, it.turn.sealSequence ?? 1);
}

/**
 * Checks a stored snapshot's seal under `key` and returns its sequence; a snapshot without a
 * seal, or one changed in any field since it was sealed, throws `SnapshotTamperedError`.
 *
 * @example
 * ```ts
 * const sequence = verifySeal(JSON.parse(stored), resolved.snapshotKey);
 * ```
 */
export function verifySeal(input: unknown, key: Uint8Array): number {
  try {
    return checkSeal(input, key);
  } catch (err) {
    if (err instanceof SnapshotTamperedError) throw err;
    // a value whose fields cannot be read (a revoked Proxy, a throwing getter or toJSON)
    throw new SnapshotTamperedError('The snapshot could not be read: only a snapshot this library handed out can resume.');
  }
}

function checkSeal(input: unknown, key: Uint8Array): number {
  const seal = (input as { seal?: { sequence?: unknown; nonce?: unknown; mac?: unknown } } | null)?.seal;
  const sequence = seal?.sequence;
  if (typeof input !== 'object' || input === null || typeof seal !== 'object' || seal === null) {
    throw new SnapshotTamperedError('The snapshot carries no seal: only a snapshot this library handed out can resume.');
  }
  if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 1 || typeof seal.mac !== 'string' || typeof seal.nonce !== 'string') {
    throw new SnapshotTamperedError('The snapshot seal is malformed.');
  }
  const { seal: _seal, ...rest } = input as Record<string, unknown>;
  const expected = Buffer.from(macOf(rest, sequence, seal.nonce, key), 'base64url');
  const given = Buffer.from(seal.mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new SnapshotTamperedError('The snapshot was changed after it was sealed (or sealed with another snapshotKey): nothing of it runs.');
  }
  return sequence;
}

/**
 * A digest of a call's tool name and arguments (SHA-256 of their canonical JSON): what an
 * operator was shown, so a decision binds to exactly that call.
 *
 * @example
 * ```ts
 * approvalDigest('write_file', { path: 'a.txt' }) === approvalDigest('write_file', { path: 'a.txt' }); // true
 * ```
 */
export function approvalDigest(name: string, args: unknown): string {
  return createHash('sha256').update(canonicalJson({ name, args }), 'utf8').digest('base64url');
}

const macOf = (rest: object, sequence: number, nonce: string, key: Uint8Array): string =>
  createHmac('sha256', key)
    .update(canonicalJson({ ...rest, seal: { sequence, nonce } }), 'utf8')
    .digest('base64url');
