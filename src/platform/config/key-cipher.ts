/**
 * Encryption at rest of each workspace's Event Intelligence service key and of its Slack tokens (issue 15).
 *
 * - `KeyCipher`: `encrypt(teamId, plaintext, purpose?)` → opaque base64 text; `decrypt(teamId,
 *   ciphertext, purpose?)` → the plaintext. The team id and the purpose are bound to the ciphertext
 *   (KMS encryption context / AES-GCM additional data), so one workspace's ciphertext copied to
 *   another's item does not decrypt, nor a Slack token's as a service key or the other way round.
 * - Purposes: `'service-key'` (the default) keeps the context `{ teamId }` that stored service keys were
 *   made with; `SLACK_TOKENS_PURPOSE` adds `purpose`, so IAM can allow one without the other.
 * - `createLocalKeyCipher(key?)`: AES-256-GCM with a 32-byte key; without one, a fixed dev-only key.
 * - In `kms-key-cipher.ts` (apart, so the store does not load the KMS client with these types):
 *   `createKmsKeyCipher(kms, keyId)`, AWS KMS, the purpose's encryption context on both calls; and
 *   `createKeyCipher(env)`, KMS when `KMS_KEY_ID` is set, local otherwise.
 * - `KeyCipherError`: any failure; its message and cause never carry the plaintext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../errors.ts';

/** The `purpose` of Slack tokens' encryption context; the stack's KMS grants name it too. */
export const SLACK_TOKENS_PURPOSE = 'slack-tokens';

export type KeyPurpose = 'service-key' | typeof SLACK_TOKENS_PURPOSE;

export interface KeyCipher {
  encrypt(teamId: string, plaintext: string, purpose?: KeyPurpose): Promise<string>;
  decrypt(teamId: string, ciphertext: string, purpose?: KeyPurpose): Promise<string>;
}

/** Service keys keep the context they were first encrypted under, or stored ones would not decrypt. */
export const encryptionContext = (teamId: string, purpose: KeyPurpose): Record<string, string> =>
  purpose === 'service-key' ? { teamId } : { teamId, purpose };

/** What a purpose protects, in messages; and what a user can do when it cannot be read. */
export const SUBJECTS = {
  'service-key': {
    name: 'the service key',
    userMessage: "The workspace's service key could not be read. An admin can connect it again in App Home.",
  },
  [SLACK_TOKENS_PURPOSE]: {
    name: 'the Slack tokens',
    userMessage: "The app's access to this workspace could not be read. Installing the app again fixes it.",
  },
} satisfies Record<KeyPurpose, { name: string; userMessage: string }>;

export class KeyCipherError extends AppError {
  constructor(message: string, options: { cause?: unknown; purpose?: KeyPurpose } = {}) {
    const { purpose = 'service-key', ...rest } = options;
    super('KEY_CIPHER', message, { ...rest, userMessage: SUBJECTS[purpose].userMessage });
  }
}

/** DEV ONLY: public in this repository, so it protects nothing. Never used when `KMS_KEY_ID` is set. */
const DEV_ONLY_LOCAL_KEY = Buffer.from('eventbot-dev-only-local-key-32b!', 'utf8');

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The additional data: the team id alone for service keys (as stored ones were made), else the whole context. */
const additionalData = (teamId: string, purpose: KeyPurpose) =>
  Buffer.from(
    purpose === 'service-key' ? teamId : JSON.stringify(encryptionContext(teamId, purpose)),
    'utf8',
  );

/** AES-256-GCM; the ciphertext is base64 of iv ‖ tag ‖ encrypted bytes. */
export function createLocalKeyCipher(key: Buffer = DEV_ONLY_LOCAL_KEY): KeyCipher {
  if (key.length !== 32) throw new KeyCipherError('The local encryption key must be 32 bytes');
  return {
    encrypt(teamId, plaintext, purpose = 'service-key') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(additionalData(teamId, purpose));
      const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Promise.resolve(Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64'));
    },
    decrypt(teamId, ciphertext, purpose = 'service-key') {
      const bytes = Buffer.from(ciphertext, 'base64');
      try {
        if (bytes.length <= IV_BYTES + TAG_BYTES) throw new Error('ciphertext too short');
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
          .setAAD(additionalData(teamId, purpose))
          .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]);
        return Promise.resolve(plain.toString('utf8'));
      } catch (error) {
        // Node's error says only that authentication failed: another team or purpose, another key, or tampering.
        return Promise.reject(
          new KeyCipherError(`Could not decrypt ${SUBJECTS[purpose].name} of team ${teamId}`, {
            cause: error,
            purpose,
          }),
        );
      }
    },
  };
}

/** What a store built without a cipher uses: every call fails. */
const missingCipher = () =>
  Promise.reject(new AppError('KEY_CIPHER_MISSING', 'The store was built without a key cipher'));
export const NO_KEY_CIPHER: KeyCipher = { encrypt: missingCipher, decrypt: missingCipher };
