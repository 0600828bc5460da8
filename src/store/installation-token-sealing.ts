import { type KeyCipher, NO_KEY_CIPHER, SLACK_TOKENS_PURPOSE } from '../platform/config/key-cipher.ts';
import type { Installation } from './installation-items.ts';

/**
 * An installation's tokens (bot and user, access and refresh) encrypted for storage under the
 * `slack-tokens` purpose, bound to the id the item is keyed by, and decrypted again on read.
 */

/** Marks a stored token as ciphertext (base64 has no `:`, and no Slack token starts so). */
const SEALED = 'enc:';
/** Decrypted tokens kept per process; a few per workspace, each replaced every refresh. */
const MAX_OPENED_TOKENS = 1_000;

/**
 * Encrypts tokens for an install and decrypts them again. A decrypted token is kept by its
 * ciphertext (and the install's id, so a ciphertext copied to another item is not served from
 * memory), and so is one just encrypted: a warm function makes no KMS call for a token it has seen.
 */
export function tokenSealer(cipher: KeyCipher | undefined) {
  const opened = new Map<string, Promise<string>>();
  const remember = (key: string, plaintext: Promise<string>) => {
    const oldest = opened.keys().next();
    if (opened.size >= MAX_OPENED_TOKENS && !oldest.done) opened.delete(oldest.value);
    opened.set(key, plaintext);
  };
  return {
    async seal(id: string, token: string): Promise<string> {
      if (!cipher) return token; // a single-workspace app's store, which keeps no installations
      const sealed = SEALED + (await cipher.encrypt(id, token, SLACK_TOKENS_PURPOSE));
      remember(`${id} ${sealed}`, Promise.resolve(token));
      return sealed;
    },
    open(id: string, stored: string): Promise<string> {
      if (!stored.startsWith(SEALED)) return Promise.resolve(stored); // written before encryption
      const key = `${id} ${stored}`;
      const known = opened.get(key);
      if (known) return known;
      const plaintext = (cipher ?? NO_KEY_CIPHER).decrypt(
        id,
        stored.slice(SEALED.length),
        SLACK_TOKENS_PURPOSE,
      );
      remember(key, plaintext);
      // A failure (KMS unreachable, say) is not kept: the next read tries again.
      void plaintext.catch(() => opened.delete(key));
      return plaintext;
    },
  };
}
export type TokenSealer = ReturnType<typeof tokenSealer>;

/** The installation with each of its tokens passed through `convert` (both ways: seal or open). */
export async function withTokens(
  installation: Installation,
  convert: (token: string) => Promise<string>,
): Promise<Installation> {
  const optional = async (token: string | undefined) => (token === undefined ? undefined : convert(token));
  const { bot, user } = installation;
  const [botToken, botRefresh, userToken, userRefresh] = await Promise.all([
    optional(bot?.token),
    optional(bot?.refreshToken),
    optional(user.token),
    optional(user.refreshToken),
  ]);
  return {
    ...installation,
    user: { ...user, token: userToken, ...(userRefresh === undefined ? {} : { refreshToken: userRefresh }) },
    ...(bot && botToken !== undefined
      ? {
          bot: { ...bot, token: botToken, ...(botRefresh === undefined ? {} : { refreshToken: botRefresh }) },
        }
      : {}),
  };
}
