/**
 * Encryption of each workspace's Event Intelligence service key at rest (issue 15).
 *
 * - `KeyCipher`: `encrypt(teamId, plaintext)` → opaque base64 text; `decrypt(teamId, ciphertext)` →
 *   the plaintext. The team id is bound to the ciphertext (KMS encryption context / AES-GCM additional
 *   data), so one workspace's ciphertext copied to another's item does not decrypt.
 * - `createKmsKeyCipher(kms, keyId)`: AWS KMS, `EncryptionContext: { teamId }` on both calls.
 * - `createLocalKeyCipher(key?)`: AES-256-GCM with a 32-byte key; without one, a fixed dev-only key.
 * - `createKeyCipher(env)`: KMS when `KMS_KEY_ID` is set, local otherwise.
 * - `KeyCipherError`: any failure; its message and cause never carry the plaintext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { AppError } from '../errors.ts';
import type { Env } from './env.ts';

export interface KeyCipher {
  encrypt(teamId: string, plaintext: string): Promise<string>;
  decrypt(teamId: string, ciphertext: string): Promise<string>;
}

export class KeyCipherError extends AppError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('KEY_CIPHER', message, {
      ...options,
      userMessage:
        "The workspace's service key could not be read. An admin can connect it again in App Home.",
    });
  }
}

/** AWS KMS. The key policy can require the `teamId` context, so a grant is per workspace if need be. */
export function createKmsKeyCipher(kms: KMSClient, keyId: string): KeyCipher {
  return {
    async encrypt(teamId, plaintext) {
      const { CiphertextBlob } = await kms
        .send(
          new EncryptCommand({
            KeyId: keyId,
            Plaintext: Buffer.from(plaintext, 'utf8'),
            EncryptionContext: { teamId },
          }),
        )
        .catch((error: unknown) => {
          throw new KeyCipherError(`KMS could not encrypt the service key of team ${teamId}`, {
            cause: error,
          });
        });
      if (!CiphertextBlob) throw new KeyCipherError('KMS returned no ciphertext');
      return Buffer.from(CiphertextBlob).toString('base64');
    },
    async decrypt(teamId, ciphertext) {
      const { Plaintext } = await kms
        .send(
          new DecryptCommand({
            KeyId: keyId,
            CiphertextBlob: Buffer.from(ciphertext, 'base64'),
            EncryptionContext: { teamId },
          }),
        )
        .catch((error: unknown) => {
          throw new KeyCipherError(`KMS could not decrypt the service key of team ${teamId}`, {
            cause: error,
          });
        });
      if (!Plaintext) throw new KeyCipherError('KMS returned no plaintext');
      return Buffer.from(Plaintext).toString('utf8');
    },
  };
}

/** DEV ONLY: public in this repository, so it protects nothing. Never used when `KMS_KEY_ID` is set. */
const DEV_ONLY_LOCAL_KEY = Buffer.from('eventbot-dev-only-local-key-32b!', 'utf8');

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM; the ciphertext is base64 of iv ‖ tag ‖ encrypted bytes. */
export function createLocalKeyCipher(key: Buffer = DEV_ONLY_LOCAL_KEY): KeyCipher {
  if (key.length !== 32) throw new KeyCipherError('The local encryption key must be 32 bytes');
  return {
    encrypt(teamId, plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(teamId, 'utf8'));
      const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Promise.resolve(Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64'));
    },
    decrypt(teamId, ciphertext) {
      const bytes = Buffer.from(ciphertext, 'base64');
      try {
        if (bytes.length <= IV_BYTES + TAG_BYTES) throw new Error('ciphertext too short');
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
          .setAAD(Buffer.from(teamId, 'utf8'))
          .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]);
        return Promise.resolve(plain.toString('utf8'));
      } catch (error) {
        // Node's error says only that authentication failed: another team, another key, or tampering.
        return Promise.reject(
          new KeyCipherError(`Could not decrypt the service key of team ${teamId}`, { cause: error }),
        );
      }
    },
  };
}

/** KMS when `KMS_KEY_ID` is set (AWS), the local cipher otherwise (dev and tests). */
export function createKeyCipher(
  env: Pick<Env, 'KMS_KEY_ID' | 'LOCAL_ENCRYPTION_KEY'>,
  options: { kms?: () => KMSClient; onLambda?: boolean } = {},
): KeyCipher {
  if (env.KMS_KEY_ID) return createKmsKeyCipher(options.kms?.() ?? new KMSClient({}), env.KMS_KEY_ID);
  // On Lambda the dev key would protect nothing: refuse to store or read a key rather than use it.
  if (options.onLambda ?? Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME)) {
    const refuse = () =>
      Promise.reject(
        new KeyCipherError('KMS_KEY_ID is not set: workspace keys are encrypted with KMS on AWS'),
      );
    return { encrypt: refuse, decrypt: refuse };
  }
  return createLocalKeyCipher(env.LOCAL_ENCRYPTION_KEY);
}
