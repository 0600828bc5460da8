import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthorizeResult } from '@slack/oauth';
import { ErrorCode, WebClient } from '@slack/web-api';
import * as z from 'zod';
import { AppError } from '../errors.ts';
import type { Logger } from '../log.ts';
import {
  describeInstallation,
  InstallationNotFoundError,
  type InstallationLookup,
  type InstallationRepository,
  installationKey,
} from '../store/installations.ts';
import { epochSeconds, systemClock } from '../store/support.ts';
import { webClientOptions } from './web-client.ts';

/**
 * A workspace's bot token, refreshed before it expires when the app uses Slack's token rotation.
 *
 *   const tokens = createInstallationTokens({ installations: store.installations, clientId, clientSecret });
 *   await tokens.botToken({ teamId, enterpriseId, isEnterpriseInstall });  // → 'xoxe.xoxb-…'
 *   new App({ authorize: tokens.authorize, … });                           // Bolt's `authorize`
 *
 * A token that expires within `refreshMarginSeconds` is refreshed with `oauth.v2.access`
 * (grant_type=refresh_token) once, however many ask at the same time: callers in this process
 * share one refresh, and across instances a lease on the installation item (taken only while the
 * refresh token read is still the stored one) lets one instance refresh. The others keep using the
 * current token while it is still valid, or wait for the new one when it has expired.
 * `@slack/oauth`'s own rotation in `InstallProvider#authorize` has neither guard: do not use it.
 */

export interface InstallationTokensDeps {
  installations: InstallationRepository;
  clientId: string;
  clientSecret: string;
  /** Slack's Web API base URL (a fake Slack in tests). */
  slackApiUrl?: string;
  logger?: Logger;
  now?: () => Date;
  /** Refresh when the token expires within this many seconds. */
  refreshMarginSeconds?: number;
  /** How long one instance may hold the refresh before another may take over. */
  leaseSeconds?: number;
  /** How long a caller with an expired token waits for another instance's refresh. */
  maxWaitMs?: number;
  pollMs?: number;
}

export type InstallationTokens = ReturnType<typeof createInstallationTokens>;

/** Slack's token could not be refreshed; the message carries Slack's error code, never a secret. */
export class SlackTokenRefreshError extends AppError {
  constructor(message: string) {
    super('SLACK_TOKEN_REFRESH_FAILED', message, {
      retryable: true,
      userMessage: 'Slack did not let the app renew its access just now. Please try again in a moment.',
    });
  }
}

const RefreshAnswerSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().int().positive(),
});
type RefreshAnswer = z.infer<typeof RefreshAnswerSchema>;

/** One `oauth.v2.access` refresh; a failure becomes a `SlackTokenRefreshError` with Slack's reason only. */
async function requestRefresh(
  slack: WebClient,
  { clientId, clientSecret, refreshToken }: { clientId: string; clientSecret: string; refreshToken: string },
  lookup: InstallationLookup,
): Promise<RefreshAnswer> {
  let result: unknown;
  try {
    result = await slack.oauth.v2.access({
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    });
  } catch (error) {
    throw new SlackTokenRefreshError(
      `Refreshing the bot token of ${describeInstallation(lookup)} failed: ${reasonOf(error)}`,
    );
  }
  const parsed = RefreshAnswerSchema.safeParse(result);
  if (!parsed.success) throw new SlackTokenRefreshError('oauth.v2.access answered without a new token');
  return parsed.data;
}

/** A token this close to its expiry may expire on the way to Slack. */
const EXPIRY_SKEW_SECONDS = 30;

type Bot = { expiresAt?: number; refreshToken?: string };

/** Whether a rotating token expires within `seconds` of `now` (tokens without rotation never do). */
const expiresWithin = (bot: Bot, seconds: number, now: Date) =>
  bot.refreshToken !== undefined &&
  bot.expiresAt !== undefined &&
  bot.expiresAt - seconds <= epochSeconds(now);

async function readBot(installations: InstallationRepository, lookup: InstallationLookup) {
  const stored = await installations.read(lookup);
  if (!stored) throw new InstallationNotFoundError(lookup);
  const { bot } = stored.installation;
  if (!bot)
    throw new SlackTokenRefreshError(`The installation for ${describeInstallation(lookup)} has no bot token`);
  return { installation: stored.installation, bot };
}

function authorizeResult(
  { installation, bot }: Awaited<ReturnType<typeof readBot>>,
  token: string,
  lookup: InstallationLookup,
): AuthorizeResult {
  const teamId = installation.team?.id ?? lookup.teamId;
  const enterpriseId = installation.enterprise?.id ?? lookup.enterpriseId;
  return {
    botToken: token,
    botId: bot.id,
    botUserId: bot.userId,
    ...(teamId ? { teamId } : {}),
    ...(enterpriseId ? { enterpriseId } : {}),
  };
}

export function createInstallationTokens({
  installations,
  clientId,
  clientSecret,
  slackApiUrl,
  logger,
  now = systemClock,
  refreshMarginSeconds = 600,
  leaseSeconds = 30,
  maxWaitMs = 10_000,
  pollMs = 100,
}: InstallationTokensDeps) {
  // No retries: a refresh Slack carried out but answered late must not be sent again; the next
  // request retries anyway, well before the old token expires.
  const slack = new WebClient(undefined, webClientOptions(slackApiUrl, { retries: false }));
  const inFlight = new Map<string, Promise<string>>();

  const isDue = (bot: Bot) => expiresWithin(bot, refreshMarginSeconds, now());

  /** Refreshes once across instances, or waits for the instance that does. */
  async function refreshOnce(lookup: InstallationLookup): Promise<string> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const { bot } = await readBot(installations, lookup);
      if (!isDue(bot) || bot.refreshToken === undefined) return bot.token;
      const owner = randomUUID();
      const claimed = await installations.claimRefresh(lookup, {
        refreshToken: bot.refreshToken,
        owner,
        leaseSeconds,
      });
      if (claimed) return refreshWithLease(lookup, bot.refreshToken, owner);
      if (!expiresWithin(bot, EXPIRY_SKEW_SECONDS, now())) return bot.token;
      if (Date.now() >= deadline)
        throw new SlackTokenRefreshError(
          `Timed out waiting for the bot token refresh of ${describeInstallation(lookup)}`,
        );
      await sleep(pollMs);
    }
  }

  async function refreshWithLease(lookup: InstallationLookup, refreshToken: string, owner: string) {
    let answer: RefreshAnswer;
    try {
      answer = await requestRefresh(slack, { clientId, clientSecret, refreshToken }, lookup);
    } catch (error) {
      await installations.releaseRefresh(lookup, owner);
      logger?.warn('Slack bot token refresh failed', { ...fields(lookup), reason: reasonOf(error) });
      throw error;
    }
    const expiresAt = epochSeconds(now()) + answer.expires_in;
    const saved = await installations.saveRefreshed(lookup, owner, {
      token: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresAt,
    });
    // Not saved: the lease ran out (or the app was reinstalled) meanwhile; the new token still works.
    if (saved) logger?.info('Slack bot token refreshed', { ...fields(lookup), expiresAt });
    else logger?.warn('Refreshed Slack bot token not saved: the lease was lost', fields(lookup));
    return answer.access_token;
  }

  /** The token of `read` (the installation as read for this caller), refreshed first when due. */
  async function tokenOf(lookup: InstallationLookup, read: Awaited<ReturnType<typeof readBot>>) {
    if (!isDue(read.bot)) return read.bot.token;
    const key = installationKey(lookup).pk;
    let flight = inFlight.get(key);
    if (!flight) {
      flight = refreshOnce(lookup).finally(() => inFlight.delete(key));
      inFlight.set(key, flight);
    }
    return flight;
  }

  return {
    /** A valid bot token for the workspace (or org-wide install), refreshed first when due. */
    botToken: async (lookup: InstallationLookup): Promise<string> =>
      tokenOf(lookup, await readBot(installations, lookup)),

    /** Bolt's `authorize` option: the installation's bot identity with a valid token. */
    async authorize(lookup: InstallationLookup): Promise<AuthorizeResult> {
      // One read per request: a refresh changes the token, never the bot's identity.
      const read = await readBot(installations, lookup);
      return authorizeResult(read, await tokenOf(lookup, read), lookup);
    },
  };
}

const fields = ({ teamId, enterpriseId }: InstallationLookup) => ({
  ...(teamId ? { team: teamId } : {}),
  ...(enterpriseId ? { enterprise: enterpriseId } : {}),
});

const CodedErrorSchema = z.object({
  code: z.enum(ErrorCode),
  data: z.object({ error: z.string() }).optional(),
});

/**
 * Why a refresh failed, in words safe to log: Slack's error code, or the kind of failure. The Web
 * API client's request errors hold the request (client secret, refresh token), so they are never
 * passed on as a `cause`.
 */
function reasonOf(error: unknown): string {
  if (error instanceof SlackTokenRefreshError) return error.message;
  const parsed = CodedErrorSchema.safeParse(error);
  if (!parsed.success) return 'unknown_error';
  const { code, data } = parsed.data;
  if (code === ErrorCode.PlatformError && data) return data.error;
  return code;
}
