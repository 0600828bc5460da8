import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { Env } from './env.ts';

const SlackSecretsSchema = z.object({
  slackSigningSecret: z.string().min(1),
  slackBotToken: z.string().min(1),
});
const ServiceSecretSchema = z.object({ eisApiKey: z.string().min(1) });
/** What the Slack function needs: it never holds the service key. */
export type SlackSecrets = z.infer<typeof SlackSecretsSchema>;
export type AppSecrets = SlackSecrets & z.infer<typeof ServiceSecretSchema>;

/**
 * A stable, non-secret name for the service account behind a key (the daily cap is kept per account,
 * whichever workspace spends it): a hash prefix, from which the key cannot be recovered.
 */
export function serviceAccountId(eisApiKey: string): string {
  return `acct-${createHash('sha256').update(eisApiKey).digest('hex').slice(0, 16)}`;
}

const MAX_AGE_MS = 5 * 60_000;

/**
 * Reads a secret's string value (Secrets Manager's GetSecretValue): over the SDK
 * (`secrets-manager.ts`), or signed `fetch` on the Slack function's ack path (`secrets-over-fetch.ts`).
 */
export type ReadSecret = (secretId: string) => Promise<string | undefined>;

interface ProviderOptions {
  readSecret?: ReadSecret;
  now?: () => number;
}

/**
 * The Slack secrets: from the local overrides when set (Secrets Manager is then never called),
 * otherwise from the JSON secret `APP_SECRET_ID`, cached for five minutes so a rotated value is picked
 * up without a redeploy. The same object while the values are the same, so callers can tell a
 * rotation by identity.
 */
export function createSlackSecretsProvider(
  env: Env,
  options: ProviderOptions = {},
): () => Promise<SlackSecrets> {
  const { SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN } = env;
  if (SLACK_SIGNING_SECRET && SLACK_BOT_TOKEN) {
    return constant({ slackSigningSecret: SLACK_SIGNING_SECRET, slackBotToken: SLACK_BOT_TOKEN });
  }
  if (!env.APP_SECRET_ID) {
    throw new Error('Set APP_SECRET_ID, or all of SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN and EIS_API_KEY.');
  }
  return secretReader(env.APP_SECRET_ID, SlackSecretsSchema, options);
}

const OAuthSecretsSchema = z.object({
  slackSigningSecret: z.string().min(1),
  slackClientSecret: z.string().min(1),
  slackStateSecret: z.string().min(1),
});
/** A distributed app's Slack secrets: no bot token (each workspace's comes with its install). */
export type OAuthSecrets = z.infer<typeof OAuthSecretsSchema>;

/** The Slack secrets of a distributed app: the local overrides when all are set, else `APP_SECRET_ID`. */
export function createOAuthSecretsProvider(
  env: Env,
  options: ProviderOptions = {},
): () => Promise<OAuthSecrets> {
  const { SLACK_SIGNING_SECRET, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET } = env;
  if (SLACK_SIGNING_SECRET && SLACK_CLIENT_SECRET && SLACK_STATE_SECRET) {
    return constant({
      slackSigningSecret: SLACK_SIGNING_SECRET,
      slackClientSecret: SLACK_CLIENT_SECRET,
      slackStateSecret: SLACK_STATE_SECRET,
    });
  }
  if (!env.APP_SECRET_ID) {
    throw new Error(
      'Set APP_SECRET_ID, or all of SLACK_SIGNING_SECRET, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET.',
    );
  }
  return secretReader(env.APP_SECRET_ID, OAuthSecretsSchema, options);
}

/**
 * Every secret (worker and scheduled jobs): the Slack ones as above, and the service key from
 * `EIS_API_KEY`, else the JSON secret `EIS_SECRET_ID`, else the `eisApiKey` member of `APP_SECRET_ID`
 * (one secret holding all three).
 */
export function createSecretsProvider(env: Env, options: ProviderOptions = {}): () => Promise<AppSecrets> {
  const slackIsLocal = Boolean(env.SLACK_SIGNING_SECRET && env.SLACK_BOT_TOKEN);
  if (!slackIsLocal && !env.EIS_API_KEY && !env.EIS_SECRET_ID && env.APP_SECRET_ID) {
    return secretReader(env.APP_SECRET_ID, SlackSecretsSchema.extend(ServiceSecretSchema.shape), options);
  }
  const slack = createSlackSecretsProvider(env, options);
  const service = env.EIS_API_KEY
    ? constant({ eisApiKey: env.EIS_API_KEY })
    : secretReader(env.EIS_SECRET_ID ?? env.APP_SECRET_ID ?? '', ServiceSecretSchema, options);
  let last: AppSecrets | undefined;
  return async () => {
    const [slackPart, servicePart] = await Promise.all([slack(), service()]);
    const unchanged =
      last?.slackSigningSecret === slackPart.slackSigningSecret &&
      last.slackBotToken === slackPart.slackBotToken &&
      last.eisApiKey === servicePart.eisApiKey;
    if (!unchanged || !last) last = { ...slackPart, ...servicePart };
    return last;
  };
}

const constant =
  <T>(value: T) =>
  (): Promise<T> =>
    Promise.resolve(value);

/**
 * One JSON secret, parsed, cached for five minutes, the same object while its values are the same.
 * Why not Powertools Parameters: docs/performance.md, "Kept libraries and hand-written code".
 */
function secretReader<Schema extends z.ZodObject<Record<string, z.ZodString>>>(
  secretId: string,
  schema: Schema,
  options: ProviderOptions,
): () => Promise<z.infer<Schema>> {
  const now = options.now ?? Date.now;
  let cached: { value: z.infer<Schema>; at: number } | undefined;
  let reading: Promise<z.infer<Schema>> | undefined;
  const read = async () => {
    if (!options.readSecret)
      throw new Error('A Secrets Manager client is required when a secret id is used.');
    if (!secretId) throw new Error('Set EIS_SECRET_ID or APP_SECRET_ID, or EIS_API_KEY.');
    const parsed = schema.safeParse(parseJson(await options.readSecret(secretId)));
    // The message names the expected fields only, never a value.
    if (!parsed.success) {
      throw new Error(`Secret ${secretId} must be JSON with ${fieldList(Object.keys(schema.shape))}.`);
    }
    const value = parsed.data;
    const unchanged = cached && Object.keys(schema.shape).every((key) => cached?.value[key] === value[key]);
    cached = { value: unchanged && cached ? cached.value : value, at: now() };
    return cached.value;
  };
  // Concurrent callers (the init phase and the first request) share one read.
  return () => {
    if (cached && now() - cached.at < MAX_AGE_MS) return Promise.resolve(cached.value);
    reading ??= read().finally(() => (reading = undefined));
    return reading;
  };
}

const fieldList = (fields: string[]) =>
  fields.length > 1 ? `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}` : fields.join('');

// JSON.parse errors quote the text they failed on, which here would be a secret.
function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}
