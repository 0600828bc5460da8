import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthorizeResult } from '@slack/oauth';
import { ErrorCode, WebClient } from '@slack/web-api';
import * as z from 'zod';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/log.ts';
import {
  describeInstallation,
  InstallationNotFoundError,
  type InstallationLookup,
  type InstallationRepository,
  installationKey,
  type RefreshedBotToken,
  type ServingQuery,
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
 *
 * Slack's refresh tokens are single-use: once Slack has rotated them, the new ones must not be lost.
 * Storing them is tried a few times; if it still fails they are kept in this process (and served)
 * and stored by the next caller here, over the refresh token they replace and nothing newer.
 *
 * A workspace is served by its own install, else by its Enterprise Grid org's org-wide one
 * (`installations.serving`): callers name the workspace, and its org when they know it.
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

/** How many times refreshed tokens are written before they are kept in the process instead. */
const SAVE_ATTEMPTS = 3;

/** The bot of the install serving a workspace (see `installations.serving`), with the lookup it is found by. */
async function readBot(installations: InstallationRepository, query: ServingQuery) {
  const stored = await installations.serving(query);
  if (!stored)
    throw new InstallationNotFoundError({ ...query, isEnterpriseInstall: query.teamId === undefined });
  const { bot } = stored.installation;
  const { lookup } = stored;
  if (!bot)
    throw new SlackTokenRefreshError(`The installation for ${describeInstallation(lookup)} has no bot token`);
  return { installation: stored.installation, bot, lookup };
}
type ServingBot = Awaited<ReturnType<typeof readBot>>;

function authorizeResult(
  { installation, bot }: ServingBot,
  token: string,
  query: ServingQuery,
): AuthorizeResult {
  const teamId = installation.team?.id ?? query.teamId;
  const enterpriseId = installation.enterprise?.id ?? query.enterpriseId;
  return {
    botToken: token,
    botId: bot.id,
    botUserId: bot.userId,
    ...(teamId ? { teamId } : {}),
    ...(enterpriseId ? { enterpriseId } : {}),
  };
}

/**
 * Writes refreshed tokens, retrying a failed write a few times; tokens that still could not be
 * written are kept (by install, with the refresh token they replace) for the next caller to store.
 */
function refreshedTokenStore(
  installations: InstallationRepository,
  logger: Logger | undefined,
  pollMs: number,
) {
  const unsaved = new Map<string, { replaces: string; bot: RefreshedBotToken }>();

  /** Stores refreshed tokens, retrying a failed write; `'failed'` when every attempt failed. */
  async function saveRefreshed(lookup: InstallationLookup, replaces: string, fresh: RefreshedBotToken) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await installations.saveRefreshed(lookup, replaces, fresh);
      } catch (error) {
        if (attempt >= SAVE_ATTEMPTS) {
          logger?.error(
            'Refreshed Slack bot token could not be stored: kept in this process to store later',
            {
              ...fields(lookup),
              reason: error instanceof Error ? error.name : 'unknown_error',
            },
          );
          return 'failed' as const;
        }
        await sleep(pollMs * attempt);
      }
    }
  }

  /**
   * Tokens this process refreshed but could not store: stored now when the stored refresh token is
   * still the one they replace (then served, stored or not); forgotten when it is not.
   */
  async function keptToken({ lookup, bot }: ServingBot): Promise<string | undefined> {
    const key = installationKey(lookup).pk;
    const kept = unsaved.get(key);
    if (!kept) return undefined;
    if (bot.refreshToken !== kept.replaces) {
      unsaved.delete(key);
      return undefined;
    }
    const saved = await saveRefreshed(lookup, kept.replaces, kept.bot);
    if (saved !== 'failed') unsaved.delete(key);
    if (saved === true)
      logger?.info('Slack bot token refreshed', { ...fields(lookup), expiresAt: kept.bot.expiresAt });
    return kept.bot.token;
  }

  return {
    saveRefreshed,
    keptToken,
    keep: (lookup: InstallationLookup, replaces: string, bot: RefreshedBotToken) =>
      unsaved.set(installationKey(lookup).pk, { replaces, bot }),
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
  const { saveRefreshed, keep, keptToken } = refreshedTokenStore(installations, logger, pollMs);

  const isDue = (bot: Bot) => expiresWithin(bot, refreshMarginSeconds, now());

  /** Refreshes once across instances, or waits for the instance that does. */
  async function refreshOnce(lookup: InstallationLookup): Promise<string> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const bot = (await installations.read(lookup))?.installation.bot;
      if (!bot) throw new InstallationNotFoundError(lookup);
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
    const fresh = {
      token: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresAt: epochSeconds(now()) + answer.expires_in,
    };
    const saved = await saveRefreshed(lookup, refreshToken, fresh);
    if (saved === 'failed') keep(lookup, refreshToken, fresh);
    // Not saved: the app was reinstalled meanwhile; the new token still works.
    else if (saved)
      logger?.info('Slack bot token refreshed', { ...fields(lookup), expiresAt: fresh.expiresAt });
    else
      logger?.warn('Refreshed Slack bot token not saved: the installation changed meanwhile', fields(lookup));
    return fresh.token;
  }

  /** The token of `read` (the installation as read for this caller), refreshed first when due. */
  async function tokenOf(read: ServingBot) {
    const { lookup } = read;
    const key = installationKey(lookup).pk;
    const kept = await keptToken(read);
    if (kept !== undefined) return kept;
    if (!isDue(read.bot)) return read.bot.token;
    let flight = inFlight.get(key);
    if (!flight) {
      flight = refreshOnce(lookup).finally(() => inFlight.delete(key));
      inFlight.set(key, flight);
    }
    return flight;
  }

  return {
    /** A valid bot token of the install serving the workspace, refreshed first when due. */
    botToken: async (query: ServingQuery): Promise<string> => tokenOf(await readBot(installations, query)),

    /** Bolt's `authorize` option: the serving installation's bot identity with a valid token. */
    async authorize(query: ServingQuery): Promise<AuthorizeResult> {
      // One read per request: a refresh changes the token, never the bot's identity.
      const read = await readBot(installations, query);
      return authorizeResult(read, await tokenOf(read), query);
    },
  };
}

const fields = ({ teamId, enterpriseId }: ServingQuery) => ({
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
