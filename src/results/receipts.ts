import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { defaultClock, type Clock } from '../core/clock.js';
import { ConfigurationError } from '../core/errors.js';
import { canonicalJson } from './canonical-json.js';

/** What a receipt is bound to: one call of one turn, and the result its tool returned. */
export interface ReceiptInput {
  /** The turn the call belongs to. */
  readonly turnId: string;
  /** The call's id (the provider's, or the one generated for it). */
  readonly callId: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments the tool received. */
  readonly args: unknown;
  /** The normalized output, before truncation. */
  readonly result: string;
}

/**
 * Signs successful executions so their results can be verified later. A receipt is evidence
 * that this process saw the tool return that result for that call of that turn; it is not an
 * approval, not a durable audit record and not a chain.
 */
export interface ReceiptGenerator {
  /** The receipt of one successful execution; `ts` is Unix seconds (default: now, by the generator's clock). */
  generate(input: ReceiptInput & { readonly ts?: number }): string;
  /** True only for a well-formed receipt this generator made for exactly this call and result. */
  verify(receipt: string, input: ReceiptInput): boolean;
}

const VERSION = 'rtl-receipt-v2';
const RECEIPT = /^rtl-receipt-v2-(0|[1-9][0-9]{0,15})-([A-Za-z0-9_-]{43})$/;

/** One field of the MAC input: `{UTF-8 byte length}:{value}`, so no two field lists share a text. */
const field = (value: string): string => `${Buffer.byteLength(value, 'utf8')}:${value}`;

/**
 * The MAC input of a receipt: the fields `rtl-receipt-v2`, turn id, call id, tool name, arguments
 * (compact JSON, sorted keys), result and ts, each length-prefixed and concatenated.
 *
 * @example
 * ```ts
 * receiptMessage({ turnId: 't', callId: 'c', name: 'calc', args: {}, result: '42' }, 5);
 * // '14:rtl-receipt-v21:t1:c4:calc2:{}2:421:5'
 * ```
 */
export function receiptMessage(input: ReceiptInput, ts: number): string {
  return [VERSION, input.turnId, input.callId, input.name, canonicalJson(input.args), input.result, String(ts)].map(field).join('');
}

/**
 * Creates a receipt generator: HMAC-SHA256 over `receiptMessage` (turn id, call id, tool name,
 * sorted-key arguments, result, ts — each length-prefixed), keyed by `key` or by 32 random bytes
 * made for this generator; `options.clock` gives the time of a receipt made without `ts` (the
 * loop always passes the agent clock's). Receipts read `rtl-receipt-v2-{ts}-{base64url mac, no padding}`;
 * `verify` recomputes the mac and compares in constant time, and rejects anything malformed.
 *
 * @example
 * ```ts
 * const receipts = createReceiptGenerator();
 * const call = { turnId: 't1', callId: 'c1', name: 'weather', args: { city: 'Oslo' }, result: 'rain' };
 * const r = receipts.generate(call);
 * receipts.verify(r, call);                      // true
 * receipts.verify(r, { ...call, callId: 'c2' }); // false: another call
 * createAgent({ provider, model, tools, receipts });
 * ```
 */
export function createReceiptGenerator(key?: Uint8Array, options: { readonly clock?: Clock } = {}): ReceiptGenerator {
  const clock = options.clock ?? defaultClock;
  if (key !== undefined && (!(key instanceof Uint8Array) || key.length === 0)) {
    throw new ConfigurationError('createReceiptGenerator needs a non-empty Uint8Array key (or none, for a random 32-byte key).');
  }
  const secret = key === undefined ? randomBytes(32) : Buffer.from(key);
  const mac = (input: ReceiptInput, ts: number): Buffer => createHmac('sha256', secret).update(receiptMessage(input, ts), 'utf8').digest();
  return Object.freeze({
    generate(input: ReceiptInput & { readonly ts?: number }): string {
      const ts = input.ts ?? Math.floor(clock.now() / 1000);
      if (!Number.isSafeInteger(ts) || ts < 0) {
        throw new ConfigurationError(`A receipt timestamp must be whole non-negative Unix seconds (got ${ts}).`);
      }
      if (!wellTyped(input)) throw new ConfigurationError('A receipt needs string turnId, callId, name and result.');
      return `${VERSION}-${ts}-${mac(input, ts).toString('base64url')}`;
    },
    verify(receipt: string, input: ReceiptInput): boolean {
      if (typeof receipt !== 'string' || !wellTyped(input)) return false;
      const match = RECEIPT.exec(receipt);
      if (!match) return false;
      const ts = Number(match[1]);
      if (!Number.isSafeInteger(ts)) return false;
      const given = Buffer.from(match[2], 'base64url');
      if (given.length !== 32 || given.toString('base64url') !== match[2]) return false;
      return timingSafeEqual(given, mac(input, ts));
    },
  });
}

function wellTyped(input: ReceiptInput | undefined): boolean {
  return (
    typeof input === 'object' &&
    input !== null &&
    typeof input.turnId === 'string' &&
    typeof input.callId === 'string' &&
    typeof input.name === 'string' &&
    typeof input.result === 'string'
  );
}
