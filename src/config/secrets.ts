import { createHash } from 'node:crypto';
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { z } from 'zod';
import type { Env } from './env.ts';

export const AppSecretsSchema = z.object({
  slackSigningSecret: z.string().min(1),
  slackBotToken: z.string().min(1),
  eisApiKey: z.string().min(1),
});
export type AppSecrets = z.infer<typeof AppSecretsSchema>;

/**
 * A stable, non-secret name for the service account behind a key (the daily cap is kept per account,
 * whichever workspace spends it): a hash prefix, from which the key cannot be recovered.
 */
export function serviceAccountId(eisApiKey: string): string {
  return `acct-${createHash('sha256').update(eisApiKey).digest('hex').slice(0, 16)}`;
}

const MAX_AGE_MS = 5 * 60_000;

/**
 * Reads the app's secrets: from the three local overrides when all are set (Secrets Manager is then
 * never called), otherwise from the Secrets Manager JSON secret, cached for five minutes so a rotated
 * key is picked up without a redeploy.
 */
export function createSecretsProvider(
  env: Env,
  options: { client?: () => SecretsManagerClient; now?: () => number } = {},
): () => Promise<AppSecrets> {
  const { SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN, EIS_API_KEY } = env;
  if (SLACK_SIGNING_SECRET && SLACK_BOT_TOKEN && EIS_API_KEY) {
    const local = {
      slackSigningSecret: SLACK_SIGNING_SECRET,
      slackBotToken: SLACK_BOT_TOKEN,
      eisApiKey: EIS_API_KEY,
    };
    return () => Promise.resolve(local);
  }
  const secretId = env.APP_SECRET_ID;
  if (!secretId) {
    throw new Error('Set APP_SECRET_ID, or all of SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN and EIS_API_KEY.');
  }
  const now = options.now ?? Date.now;
  let cached: { value: AppSecrets; at: number } | undefined;
  return async () => {
    if (cached && now() - cached.at < MAX_AGE_MS) return cached.value;
    if (!options.client) throw new Error('A Secrets Manager client is required when APP_SECRET_ID is used.');
    const { SecretString } = await options.client().send(new GetSecretValueCommand({ SecretId: secretId }));
    const parsed = AppSecretsSchema.safeParse(parseJson(SecretString));
    // The message names the expected fields only, never a value.
    if (!parsed.success) {
      throw new Error(
        `Secret ${secretId} must be JSON with slackSigningSecret, slackBotToken and eisApiKey.`,
      );
    }
    // The same object while the values are the same, so callers can tell a rotation by identity.
    const unchanged =
      cached &&
      cached.value.slackSigningSecret === parsed.data.slackSigningSecret &&
      cached.value.slackBotToken === parsed.data.slackBotToken &&
      cached.value.eisApiKey === parsed.data.eisApiKey;
    cached = { value: unchanged && cached ? cached.value : parsed.data, at: now() };
    return cached.value;
  };
}

// JSON.parse errors quote the text they failed on, which here would be a secret.
function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}
