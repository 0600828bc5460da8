import { randomUUID } from 'node:crypto';
import { createKeyCipher } from '../../src/platform/config/kms-key-cipher.ts';
import { readEnv } from '../../src/platform/config/env.ts';
import { serveLambda } from '../../local/lambda-http.ts';
import {
  type FakeSlack,
  type SlackMessage,
  startFakeSlack,
  type WorkspaceUser,
} from '../../local/fake-slack/fake-slack.ts';
import { type InstallInBrowser, installPage } from '../../local/fake-slack/oauth.ts';
import {
  type Actor,
  blockActionsBody,
  buttonsOf,
  slashCommandBody,
} from '../../local/fake-slack/payloads.ts';
import { signedHeaders } from '../../local/fake-slack/sign.ts';
import { createMemoryLogger } from '../../src/platform/log.ts';
import { createScheduledLoader } from '../../src/roots/runtime.ts';
import { type Simulator, startSimulator } from '../../simulator/server.ts';
import { createSlackHandlerLoader } from '../../src/roots/slack-runtime.ts';
import { createStore } from '../../src/store/index.ts';
import { inlineWorker } from '../../src/roots/worker-runtime.ts';
import { SIGNING_SECRET } from './bot.ts';
import { createTestTable } from './dynamo.ts';
import { type DynamoFaultProxy, startDynamoFaultProxy } from './dynamo-fault-proxy.ts';

export const CLIENT_ID = 'test-client-id-3c9e';
export const CLIENT_SECRET = 'test-client-secret-a41d';
export const STATE_SECRET = 'test-state-secret-0b7f';

/** One workspace of the distributed bot: its channel, a member, an approver, and (once connected) its key. */
export interface TestWorkspace {
  teamId: string;
  channel: string;
  member: Actor;
  approver: Actor;
}

/** A workspace with its own channel and users (ids carry the team, so two never share one). */
export function testWorkspace(teamId: string): TestWorkspace {
  const suffix = teamId.replace(/^T0?/, '');
  const channel = `C0${suffix}`;
  return {
    teamId,
    channel,
    member: { teamId, userId: `U0MEMBER${suffix}`, channelId: channel },
    approver: { teamId, userId: `U0BOSS${suffix}`, channelId: channel },
  };
}

export interface DistributedBotOptions {
  /** The workspaces the fake Slack knows (their channels and users); none is installed yet. */
  workspaces: TestWorkspace[];
  /** Token rotation: bot tokens issued at install last this many seconds. */
  tokenLifetimeSeconds?: number;
  /** Enterprise Grid orgs the fake Slack knows: each org's workspaces (by team id). */
  enterprises?: Record<string, string[]>;
  /** More people the fake Slack knows (e.g. a workspace admin: `{ teamId, isAdmin: true }`). */
  users?: Record<string, WorkspaceUser>;
  /** Where the bot's functions reach DynamoDB (a fault proxy, say); DynamoDB Local itself by default. */
  dynamoEndpoint?: string;
  /** The handlers (not the test's own `store`) reach DynamoDB Local through a fault proxy. */
  dynamoFaults?: boolean;
}

/**
 * The bot as a distributed app (issue 15) on this machine: the real Slack handler with
 * `SLACK_CLIENT_ID` set (no bot token, no service key in the environment), DynamoDB Local, the
 * simulator and the fake Slack. Workspaces install through the real `/slack/install` pages and
 * connect their key in the table, encrypted with the app's own cipher.
 */
export async function startDistributedBot(options: DistributedBotOptions) {
  const sim: Simulator = await startSimulator();
  const users = {
    ...Object.fromEntries(
      options.workspaces.flatMap(({ member, approver }) => [
        [member.userId, { name: member.userId.toLowerCase(), tz: 'UTC', teamId: member.teamId }],
        [approver.userId, { name: approver.userId.toLowerCase(), tz: 'UTC', teamId: approver.teamId }],
      ]),
    ),
    ...options.users,
  };
  const slack: FakeSlack = await startFakeSlack({
    channels: options.workspaces.map((workspace) => workspace.channel),
    users,
    ...(options.enterprises ? { enterprises: options.enterprises } : {}),
    oauth: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      ...(options.tokenLifetimeSeconds ? { tokenLifetimeSeconds: options.tokenLifetimeSeconds } : {}),
    },
  });
  const { client, tableName, endpoint: tableEndpoint } = await createTestTable();
  const proxy: DynamoFaultProxy | undefined = options.dynamoFaults
    ? await startDynamoFaultProxy({ target: tableEndpoint })
    : undefined;
  const endpoint = proxy?.endpoint ?? tableEndpoint;
  const logger = createMemoryLogger();
  // What every function reads, the scheduled ones included: no bot token and no service key.
  const env: Record<string, string> = {
    TABLE_NAME: tableName,
    AWS_ENDPOINT_URL_DYNAMODB: options.dynamoEndpoint ?? endpoint,
    EIS_BASE_URL: sim.url,
    SLACK_API_URL: slack.apiUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_CLIENT_ID: CLIENT_ID,
    SLACK_CLIENT_SECRET: CLIENT_SECRET,
    SLACK_STATE_SECRET: STATE_SECRET,
    SPEND_APPROVERS: options.workspaces.map((workspace) => workspace.approver.userId).join(','),
    WORKER_MODE: 'inline',
  };
  const load = createSlackHandlerLoader(env, {
    logger,
    inlineWorker: inlineWorker(env, { logger, earlyPolls: { count: 0, everyMs: 0 } }),
  });
  const http = await serveLambda(async (event, context) => (await load()).handler(event, context));
  const store = createStore({ client, tableName, keyCipher: createKeyCipher(readEnv(env)) });
  slack.connectApp({ requestUrl: `${http.url}/slack/events`, signingSecret: SIGNING_SECRET });

  const post = async (
    body: string,
    headers: Record<string, string> = signedHeaders(SIGNING_SECRET, body),
  ) => {
    const response = await fetch(`${http.url}/slack/events`, { method: 'POST', headers, body });
    return { status: response.status, body: await response.text() };
  };

  return {
    sim,
    slack,
    store,
    logger,
    proxy,
    url: http.url,
    env: (): Record<string, string> => ({ ...env }),
    post,

    /**
     * Someone of `teamId` (an admin, unless `how` names the user) installs the app through its real
     * pages (with `orgWide`, an org admin for the whole Enterprise Grid org); the redirect's status.
     */
    install: async (
      teamId: string,
      orgWide?: { enterpriseId: string },
      how: Pick<InstallInBrowser, 'userId' | 'consent'> = {},
    ) =>
      (
        await installPage({
          installUrl: `${http.url}/slack/install`,
          teamId,
          ...how,
          ...(orgWide ? { orgWide } : {}),
        })
      ).status,

    /** The same install, for the page the redirect answers (its status and HTML). */
    installPage: (teamId: string, how: Pick<InstallInBrowser, 'userId' | 'consent'> = {}) =>
      installPage({ installUrl: `${http.url}/slack/install`, teamId, ...how }),

    /** The workspace's admin connects `apiKey` (as the Home tab's form would store it). */
    connectKey: (teamId: string, apiKey: string, connectedBy = 'U0ADMIN') =>
      store.workspaces.putServiceKey({ teamId, serviceKey: apiKey, connectedBy }),

    /** A fresh simulator account with `balance` credits, for one workspace. */
    newKey: (balance = 20_000) => {
      const key = `sk_test_${randomUUID().slice(0, 8)}`;
      sim.addKey(key, { balance });
      return key;
    },

    /** Sends `/events <text>` as `actor` (of their team) and shows the ack as Slack does. */
    command: async (text: string, actor: Actor) => {
      const responseUrl = slack.responseUrl(actor.channelId, actor.userId, undefined, actor.teamId);
      const answer = await post(slashCommandBody(actor, text, responseUrl));
      slack.recordAck(responseUrl, answer.body);
      return answer;
    },

    /** `actor` clicks the button `actionId` on `message` (the payload names the actor's team). */
    click: (message: SlackMessage, actionId: string, actor: Actor) => {
      const clicked = buttonsOf(message).find(({ button }) => button.action_id === actionId);
      if (!clicked) throw new Error(`no ${actionId} button on message ${message.ts}: ${message.text}`);
      const responseUrl = slack.responseUrl(message.channel, actor.userId, message.ts, actor.teamId);
      return post(blockActionsBody(actor, message, clicked, responseUrl));
    },

    /** The scheduled functions (poll-tasks, digest) as one cold start, on the business clock `now`. */
    scheduled: (now?: () => Date) => createScheduledLoader(env, { logger, ...(now ? { now } : {}) }),

    /** Waits until every job the handler dispatched has finished. */
    idle: async () => {
      await (await load()).dispatch.idle?.();
    },

    close: async () => {
      await (await load()).dispatch.idle?.();
      await Promise.all([http.close(), slack.close(), sim.close(), proxy?.close()]);
    },
  };
}

export type DistributedBot = Awaited<ReturnType<typeof startDistributedBot>>;

/**
 * The shared two-workspace setup (or more): a distributed app with `workspaces` installed through its
 * OAuth pages, each with a service key of its own holding `balance` credits (`keys`, by team id).
 */
export async function startInstalledWorkspaces(
  workspaces: readonly TestWorkspace[],
  { balance = 20_000 }: { balance?: number } = {},
) {
  const bot = await startDistributedBot({ workspaces: [...workspaces] });
  const keys = new Map<string, string>();
  for (const { teamId } of workspaces) {
    const status = await bot.install(teamId);
    if (status !== 200) throw new Error(`installing ${teamId} answered ${status}`);
    const key = bot.newKey(balance);
    keys.set(teamId, key);
    await bot.connectKey(teamId, key);
  }
  return Object.assign(bot, { keys });
}
export type InstalledWorkspaces = Awaited<ReturnType<typeof startInstalledWorkspaces>>;
