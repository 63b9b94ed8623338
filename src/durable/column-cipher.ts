import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { ConfigurationError } from '../core/errors.js';
import { DurableStoreError } from './durable-errors.js';

/** What an encrypted column holds, as JSON: AES-256-GCM's nonce, tag and ciphertext (base64url). */
interface Sealed {
  readonly rtlEncrypted: 1;
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
}

/** Encrypts and decrypts the JSON of a store's columns that hold conversation content. */
export interface ColumnCipher {
  /** The value as it is stored: encrypted when the store has a key, else as it is. */
  seal(value: unknown, context: string): unknown;
  /** The value from what is stored; a row that does not decrypt under the key fails closed. */
  open<T>(stored: unknown, context: string): T;
}

/** The shortest `encryptionKey` accepted, in bytes. */
export const MIN_ENCRYPTION_KEY_BYTES = 16;

const PLAIN: ColumnCipher = Object.freeze({ seal: (value: unknown) => value, open: <T>(stored: unknown) => openPlain<T>(stored) });

/**
 * The cipher of a SQL store's `encryptionKey`: none leaves columns as JSON; a key (a string, read
 * as UTF-8, or bytes; at least 16 bytes, stretched to 256 bits with HKDF-SHA256) encrypts each
 * value with AES-256-GCM under a random nonce, bound to its `context` (the column and the turn or
 * conversation it belongs to), so a row copied onto another turn fails to decrypt. A row stored
 * before the key was set reads as it is; an encrypted row read without the key, with another
 * key, or changed, throws a `DurableStoreError`.
 *
 * @example
 * ```ts
 * const cipher = columnCipher(process.env.RTL_ENCRYPTION_KEY);
 * const stored = cipher.seal(snapshot, `snapshot:${turnId}`);
 * cipher.open<TurnSnapshot>(stored, `snapshot:${turnId}`); // the snapshot again
 * ```
 */
export function columnCipher(encryptionKey: string | Uint8Array | undefined): ColumnCipher {
  if (encryptionKey === undefined) return PLAIN;
  const secret = typeof encryptionKey === 'string' ? Buffer.from(encryptionKey, 'utf8') : encryptionKey;
  if (!(secret instanceof Uint8Array) || secret.length < MIN_ENCRYPTION_KEY_BYTES) {
    throw new ConfigurationError(`encryptionKey must be a string or bytes of at least ${MIN_ENCRYPTION_KEY_BYTES} bytes.`);
  }
  const key = Buffer.from(hkdfSync('sha256', secret, 'rx-tool-loop', 'durable columns, AES-256-GCM', 32));
  return Object.freeze({
    seal(value: unknown, context: string): Sealed {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(JSON.stringify(value) ?? 'null', 'utf8'), cipher.final()]);
      return { rtlEncrypted: 1, iv: iv.toString('base64url'), tag: cipher.getAuthTag().toString('base64url'), data: data.toString('base64url') };
    },
    open<T>(stored: unknown, context: string): T {
      if (!isSealed(stored)) return stored as T;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(stored.iv, 'base64url')).setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(stored.tag, 'base64url'));
        const text = Buffer.concat([decipher.update(Buffer.from(stored.data, 'base64url')), decipher.final()]).toString('utf8');
        return JSON.parse(text) as T;
      } catch {
        throw new DurableStoreError(`A stored ${context.split(':')[0]} does not decrypt under this store's encryptionKey (another key, or the row was changed): nothing of it is used.`);
      }
    },
  });
}

function openPlain<T>(stored: unknown): T {
  if (isSealed(stored)) throw new DurableStoreError('A stored row is encrypted, and this store has no encryptionKey: nothing of it is used.');
  return stored as T;
}

const isSealed = (stored: unknown): stored is Sealed =>
  typeof stored === 'object' &&
  stored !== null &&
  (stored as { rtlEncrypted?: unknown }).rtlEncrypted === 1 &&
  typeof (stored as Sealed).iv === 'string' &&
  typeof (stored as Sealed).tag === 'string' &&
  typeof (stored as Sealed).data === 'string';
