import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { serveLambda } from '../../local/lambda-http.ts';
import {
  type FakeSlack,
  type SlackMessage,
  startFakeSlack,
  type WorkspaceUser,
} from '../../local/fake-slack/fake-slack.ts';
import {
  type Actor,
  blockActionsBody,
  buttonsOf,
  slashCommandBody,
} from '../../local/fake-slack/payloads.ts';
import { signedHeaders } from '../../local/fake-slack/sign.ts';
import { createMemoryLogger } from '../../src/platform/log.ts';
import { createScheduledLoader } from '../../src/roots/runtime.ts';
import { createSlackHandlerLoader } from '../../src/roots/slack-runtime.ts';
import { inlineWorker } from '../../src/roots/worker-runtime.ts';
import { type Simulator, startSimulator } from '../../simulator/server.ts';
import { createStore } from '../../src/store/index.ts';
import { createTestTable } from './dynamo.ts';

export const SIGNING_SECRET = 'test-signing-secret-5f2a';
export const BOT_TOKEN = 'xoxb-test-bot-token-77c1';
export const TEAM = 'T0TEST';
export const CHANNEL = 'C0GENERAL';
export const ALICE: Actor = { teamId: TEAM, userId: 'U0ALICE', channelId: CHANNEL };
export const BOB: Actor = { teamId: TEAM, userId: 'U0BOB', channelId: CHANNEL };
export const APPROVER: Actor = { teamId: TEAM, userId: 'U0BOSS', channelId: CHANNEL };

export interface BotOptions {
  latencyMs?: number;
  dailyCap?: number;
  approvalThreshold?: number;
  /** SPEND_APPROVERS (default APPROVER); user group ids among them are listed in `userGroups`. */
  spendApprovers?: string;
  /** Fake Slack's user groups and their members (`usergroups.users.list`). */
  userGroups?: Record<string, string[]>;
  /** People fake Slack knows (e.g. a workspace admin: `{ isAdmin: true }`); others are plain members. */
  users?: Record<string, WorkspaceUser>;
  balance?: number;
  botNotIn?: string[];
  /** More channels fake Slack knows, beside CHANNEL and C0OTHER. */
  channels?: string[];
  /** Channel names by id, as conversations.info answers them (none by default). */
  channelNames?: Record<string, string>;
  /** SLACK_TEAM_ID (default TEAM); `null` leaves it unset, so the team is fake Slack's auth.test `T0LOCAL`. */
  slackTeamId?: string | null;
  /** The worker's first polls of a task it submitted; none by default, so tests poll when they choose. */
  earlyPolls?: { count: number; everyMs: number };
  /** A clock the simulator's tasks and the worker (its time and its waits) run on, instead of the real one. */
  clock?: { now: () => number; sleep: (ms: number) => Promise<void> };
}

/**
 * The whole bot as Slack and AWS would run it, on this machine: the real `handlers/slack.ts` code path
 * behind a local Function URL, DynamoDB Local, the service simulator, and the fake Slack Web API.
 */
export async function startBot(options: BotOptions = {}) {
  const { clock } = options;
  const sim: Simulator = await startSimulator({
    latencyMs: options.latencyMs ?? 0,
    ...(clock ? { now: clock.now } : {}),
  });
  const apiKey = `sk_test_${randomUUID().slice(0, 8)}`;
  sim.addKey(apiKey, { balance: options.balance ?? 20_000 });
  const slack: FakeSlack = await startFakeSlack({
    channels: [CHANNEL, 'C0OTHER', ...(options.channels ?? [])],
    ...(options.botNotIn ? { botNotIn: options.botNotIn } : {}),
    ...(options.channelNames ? { channelNames: options.channelNames } : {}),
    ...(options.userGroups ? { userGroups: options.userGroups } : {}),
    ...(options.users ? { users: options.users } : {}),
  });
  const { client, tableName, endpoint } = await createTestTable();
  const logger = createMemoryLogger();
  // What the scheduled functions (poll-tasks, digest) read; the Slack function adds its own settings.
  const scheduledEnv: Record<string, string> = {
    TABLE_NAME: tableName,
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    EIS_BASE_URL: sim.url,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    EIS_API_KEY: apiKey,
    SLACK_API_URL: slack.apiUrl,
  };
  const env = {
    ...scheduledEnv,
    WORKER_MODE: 'inline',
    SPEND_APPROVERS: options.spendApprovers ?? APPROVER.userId,
    ...(options.slackTeamId !== null ? { SLACK_TEAM_ID: options.slackTeamId ?? TEAM } : {}),
    ...(options.dailyCap !== undefined ? { DAILY_CREDIT_CAP: String(options.dailyCap) } : {}),
    ...(options.approvalThreshold !== undefined
      ? { APPROVAL_THRESHOLD: String(options.approvalThreshold) }
      : {}),
  };
  const load = createSlackHandlerLoader(env, {
    logger,
    inlineWorker: inlineWorker(env, {
      logger,
      earlyPolls: options.earlyPolls ?? { count: 0, everyMs: 0 },
      ...(clock ? { now: () => new Date(clock.now()), sleep: clock.sleep } : {}),
    }),
  });
  const http = await serveLambda(async (event, context) => (await load()).handler(event, context));
  const store = createStore({ client, tableName });
  // Slack's own deliveries (events, shortcuts, modals) go to the handler, signed, as in production.
  slack.connectApp({
    requestUrl: `${http.url}/slack/events`,
    signingSecret: SIGNING_SECRET,
    teamId: options.slackTeamId === null ? 'T0LOCAL' : (options.slackTeamId ?? TEAM),
    unfurlDomains: ['app.lensmor.com'],
  });

  const post = async (
    body: string,
    headers: Record<string, string> = signedHeaders(SIGNING_SECRET, body),
  ) => {
    const started = performance.now();
    const response = await fetch(`${http.url}/slack/events`, { method: 'POST', headers, body });
    const text = await response.text();
    return { status: response.status, body: text, json: safeJson(text), ms: performance.now() - started };
  };

  const bot = {
    sim,
    slack,
    store,
    table: { client, tableName },
    apiKey,
    logger,
    /** The environment of the scheduled functions against this bot's services (a fresh copy). */
    scheduledEnv: (): Record<string, string> => ({ ...scheduledEnv }),
    url: http.url,
    post,
    /** Sends `/events <text>` as `actor` and returns the immediate HTTP answer. */
    command: async (text: string, actor: Actor = ALICE) => {
      const responseUrl = slack.responseUrl(actor.channelId, actor.userId);
      const answer = await post(slashCommandBody(actor, text, responseUrl));
      slack.recordAck(responseUrl, answer.body);
      return answer;
    },
    /** Clicks the button `actionId` (the first, or the one whose label matches) on `message`. */
    click: (message: SlackMessage, actionId: string, actor: Actor = ALICE, label?: string) => {
      const clicked = buttonsOf(message).find(
        ({ button }) => button.action_id === actionId && (!label || button.text.text.includes(label)),
      );
      if (!clicked) throw new Error(`no ${actionId} button on message ${message.ts}: ${message.text}`);
      const responseUrl = slack.responseUrl(message.channel, actor.userId, message.ts);
      return post(blockActionsBody(actor, message, clicked, responseUrl));
    },
    /** One run of the confirmation reconciler (as poll-tasks runs it), `offsetMs` in the future. */
    reconcile: async (offsetMs = 0) => {
      const jobs = await createScheduledLoader(env, { logger, now: () => new Date(Date.now() + offsetMs) })();
      return jobs.reconcileConfirmations();
    },
    /** Waits until every job the handler dispatched has finished. */
    idle: async () => {
      await (await load()).dispatch.idle?.();
    },
    /** Messages in the channel, oldest first (ephemeral ones included, marked with visibleTo). */
    messages: (channel = CHANNEL) => slack.messages(channel),
    last: (channel = CHANNEL) => {
      const all = slack.messages(channel);
      const message = all[all.length - 1];
      if (!message) throw new Error('no message yet');
      return message;
    },
    find: (predicate: (message: SlackMessage) => boolean, channel = CHANNEL) => {
      const message = slack.messages(channel).find(predicate);
      if (!message) throw new Error('no such message');
      return message;
    },
    close: async () => {
      await (await load()).dispatch.idle?.();
      await Promise.all([http.close(), slack.close(), sim.close()]);
    },
  };
  return bot;
}

export type Bot = Awaited<ReturnType<typeof startBot>>;

/** Runs of the unlock-task poller as poll-tasks runs them, all from one cold start. */
export function unlockPoller(bot: Bot): () => Promise<unknown> {
  const load = createScheduledLoader(bot.scheduledEnv(), { logger: bot.logger });
  return async () => (await load()).pollUnlockTasks();
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Everything a user could read in a message: its fallback text and all block text. */
/** The texts shown to `userId` alone (ephemeral answers), one a line. */
export const toldTo = (bot: Pick<Bot, 'messages'>, userId: string): string =>
  bot
    .messages()
    .filter((message) => message.visibleTo === userId)
    .map((message) => message.text)
    .join('\n');

export function visibleText(message: Pick<SlackMessage, 'text' | 'blocks'>): string {
  return `${message.text}\n${JSON.stringify(message.blocks)}`;
}

/**
 * Posts `/events <text>` and returns the confirmation card it produced, as a snapshot: what the
 * user's Slack client still shows, whatever happens to the card later.
 */
export async function askFor(bot: Bot, text: string): Promise<SlackMessage> {
  await bot.command(text);
  await bot.idle();
  const card = bot.last();
  if (!visibleText(card).includes('confirm.yes'))
    throw new Error(`no confirmation card for ${text}: ${card.text}`);
  return structuredClone(card);
}

/** The confirmation id a card's Confirm button carries. */
export function confirmationIdOf(card: SlackMessage): string {
  const confirm = buttonsOf(card).find(({ button }) => button.action_id === 'confirm.yes');
  return z.object({ confirmationId: z.string() }).parse(JSON.parse(confirm?.button.value ?? '{}'))
    .confirmationId;
}
