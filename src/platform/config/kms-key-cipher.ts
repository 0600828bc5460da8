import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import type { Env } from './env.ts';
import {
  createLocalKeyCipher,
  encryptionContext,
  type KeyCipher,
  KeyCipherError,
  SUBJECTS,
} from './key-cipher.ts';

// The KMS half of `key-cipher.ts`: only the composition roots that encrypt import it.

/**
 * AWS KMS. IAM conditions on the context let a function use one purpose and not the other, and the
 * key policy could require a `teamId`, so a grant could be per workspace if need be.
 */
export function createKmsKeyCipher(kms: KMSClient, keyId: string): KeyCipher {
  return {
    async encrypt(teamId, plaintext, purpose = 'service-key') {
      const { CiphertextBlob } = await kms
        .send(
          new EncryptCommand({
            KeyId: keyId,
            Plaintext: Buffer.from(plaintext, 'utf8'),
            EncryptionContext: encryptionContext(teamId, purpose),
          }),
        )
        .catch((error: unknown) => {
          throw new KeyCipherError(`KMS could not encrypt ${SUBJECTS[purpose].name} of team ${teamId}`, {
            cause: error,
            purpose,
          });
        });
      if (!CiphertextBlob) throw new KeyCipherError('KMS returned no ciphertext', { purpose });
      return Buffer.from(CiphertextBlob).toString('base64');
    },
    async decrypt(teamId, ciphertext, purpose = 'service-key') {
      const { Plaintext } = await kms
        .send(
          new DecryptCommand({
            KeyId: keyId,
            CiphertextBlob: Buffer.from(ciphertext, 'base64'),
            EncryptionContext: encryptionContext(teamId, purpose),
          }),
        )
        .catch((error: unknown) => {
          throw new KeyCipherError(`KMS could not decrypt ${SUBJECTS[purpose].name} of team ${teamId}`, {
            cause: error,
            purpose,
          });
        });
      if (!Plaintext) throw new KeyCipherError('KMS returned no plaintext', { purpose });
      return Buffer.from(Plaintext).toString('utf8');
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
        new KeyCipherError('KMS_KEY_ID is not set: workspace keys and tokens are encrypted with KMS on AWS'),
      );
    return { encrypt: refuse, decrypt: refuse };
  }
  return createLocalKeyCipher(env.LOCAL_ENCRYPTION_KEY);
}
