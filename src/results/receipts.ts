import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigurationError } from '../core/errors.js';
import { canonicalJson } from './canonical-json.js';

/**
 * Signs successful executions so their results can be verified later. A receipt is evidence
 * that this process saw the tool return that result for those arguments; it is not an
 * approval, not a durable audit record and not a chain.
 */
export interface ReceiptGenerator {
  /** The receipt of one successful execution; `ts` is Unix seconds (default: now). */
  generate(name: string, args: unknown, result: string, ts?: number): string;
  /** True only for a well-formed receipt this generator made for exactly these inputs. */
  verify(receipt: string, name: string, args: unknown, result: string): boolean;
}

const PREFIX = 'rtl-receipt-';
const RECEIPT = /^rtl-receipt-(0|[1-9][0-9]{0,15})-([A-Za-z0-9_-]{43})$/;

/**
 * Creates a receipt generator: HMAC-SHA256 over `name|argsJson|result|ts`, where argsJson is
 * compact JSON with sorted keys, keyed by `key` or by 32 random bytes made for this generator.
 * Receipts read `rtl-receipt-{ts}-{base64url mac, no padding}`; `verify` recomputes the mac and
 * compares in constant time, and rejects anything malformed.
 *
 * @example
 * ```ts
 * const receipts = createReceiptGenerator();
 * const r = receipts.generate('weather', { city: 'Oslo' }, 'rain');
 * receipts.verify(r, 'weather', { city: 'Oslo' }, 'rain'); // true
 * receipts.verify(r, 'weather', { city: 'Oslo' }, 'sun');  // false
 * createAgent({ provider, model, tools, receipts });
 * ```
 */
export function createReceiptGenerator(key?: Uint8Array): ReceiptGenerator {
  if (key !== undefined && (!(key instanceof Uint8Array) || key.length === 0)) {
    throw new ConfigurationError('createReceiptGenerator needs a non-empty Uint8Array key (or none, for a random 32-byte key).');
  }
  const secret = key === undefined ? randomBytes(32) : Buffer.from(key);
  const mac = (name: string, args: unknown, result: string, ts: number): Buffer =>
    createHmac('sha256', secret).update(`${name}|${canonicalJson(args)}|${result}|${ts}`, 'utf8').digest();
  return Object.freeze({
    generate(name: string, args: unknown, result: string, ts: number = Math.floor(Date.now() / 1000)): string {
      if (!Number.isSafeInteger(ts) || ts < 0) {
        throw new ConfigurationError(`A receipt timestamp must be whole non-negative Unix seconds (got ${ts}).`);
      }
      return `${PREFIX}${ts}-${mac(name, args, result, ts).toString('base64url')}`;
    },
    verify(receipt: string, name: string, args: unknown, result: string): boolean {
      if (typeof receipt !== 'string' || typeof result !== 'string') return false;
      const match = RECEIPT.exec(receipt);
      if (!match) return false;
      const ts = Number(match[1]);
      if (!Number.isSafeInteger(ts)) return false;
      const given = Buffer.from(match[2], 'base64url');
      if (given.length !== 32 || given.toString('base64url') !== match[2]) return false;
      return timingSafeEqual(given, mac(name, args, result, ts));
    },
  });
}
