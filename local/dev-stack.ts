import { randomBytes, randomUUID } from 'node:crypto';
import { readEnv } from '../src/platform/config/env.ts';
import { createKeyCipher } from '../src/platform/config/kms-key-cipher.ts';
import { createLogger, type Logger } from '../src/platform/log.ts';
import { DEV_API_KEY, type Simulator, startSimulator } from '../simulator/server.ts';
import { COMMAND_SPECS } from '../src/slack/commands/index.ts';
import { createSlackHandlerLoader } from '../src/roots/slack-runtime.ts';
import { inlineWorker, type WorkerOptions } from '../src/roots/worker-runtime.ts';
import { createStore } from '../src/store/index.ts';
import { createDocumentClient, ensureTable } from '../src/store/table.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import { serveLambda } from './lambda-http.ts';
import {
  type FakeSlack,
  type FakeSlackOptions,
  type LocalShortcut,
  startFakeSlack,
} from './fake-slack/fake-slack.ts';
import { installApp } from './fake-slack/oauth.ts';
import { panelOf, scheduleJobs, type Stops } from './dev-jobs.ts';
import { ANY_FREE_PORT, listenOnPagePort, type PagePort } from './page-port.ts';

/**
 * The people of the local workspace: Alice asks for unlocks, Bob may also approve them, Dana is a
 * workspace admin (Slack's `is_admin`: the Home's Workspace settings are hers to change).
 */
export const DEV_USERS = {
  alice: { id: 'U0ALICE', name: 'Alice', tz: 'Europe/Berlin', title: 'Requester' },
  bob: { id: 'U0BOB', name: 'Bob', tz: 'America/New_York', title: 'Spend approver (SPEND_APPROVERS)' },
  dana: {
    id: 'U0DANA',
    name: 'Dana',
    tz: 'Europe/London',
    title: 'Workspace admin: opens Workspace settings on the Home',
    isAdmin: true,
  },
} as const;
export const DEV_CHANNELS = { general: 'C0GENERAL', events: 'C0EVENTS' } as const;
const DEV_CHANNEL_NAMES: Record<string, string> = {
  [DEV_CHANNELS.general]: 'general',
  [DEV_CHANNELS.events]: 'events',
};
export const DEV_TEAM_ID = 'T0LOCAL';
/** With two workspaces (`DEV_WORKSPACES=2`): the second one, its member (its admin too) and its service key. */
export const DEV_SECOND_TEAM = {
  teamId: 'T0SECOND',
  user: {
    id: 'U0CAROL',
    name: 'Carol',
    tz: 'Asia/Tokyo',
    title: 'Admin of the second workspace',
    isAdmin: true,
  },
  apiKey: 'sk_dev_second_workspace',
} as const;
const DEV_CLIENT_ID = 'local-client-id';
/** The app's shortcuts as its manifest declares them, for the page's ⚡ and ⋯ menus. */
export const DEV_SHORTCUTS: readonly LocalShortcut[] = [
  { callbackId: 'search_events', name: 'Search events', type: 'global' },
  { callbackId: 'research_company', name: 'Research company', type: 'message' },
  { callbackId: 'log_for_show', name: 'Log for a show', type: 'message' },
];

/** `UNFURL_DOMAINS` as the bot reads it (comma-separated, default app.lensmor.com). */
export function unfurlDomainsOf(env: NodeJS.ProcessEnv): string[] {
  const domains = (env.UNFURL_DOMAINS ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  return domains.length > 0 ? domains : ['app.lensmor.com'];
}

export interface DevStackOptions {
  /** A DynamoDB Local already running (the tests share one); otherwise one is started and stopped. */
  dynamoEndpoint?: string;
  /**
   * Port of the local Slack page (default: any free one, as the tests want); `npm run dev` passes
   * 3000-or-the-next-free-one, or `PORT` (local/page-port.ts).
   */
  pagePort?: PagePort;
  /**
   * Whether the page keeps Slack's 3 s deadlines on the real clock, as `npm run dev` does (the
   * browser tests leave them off: a loaded machine must not fail them).
   */
  slackDeadlines?: boolean;
  /** How often the unlock-task poller runs (default 3 s; Lambda runs it every minute). */
  pollEveryMs?: number;
  /** How often the digest job runs (default every 5 minutes, as on AWS). */
  digestEveryMs?: number;
  /** How often the watch run checks the due watched channels (default hourly, as on AWS). */
  watchEveryMs?: number;
  /** How long the simulator takes to finish an unlock task (default: the simulator's). */
  taskDurationMs?: number;
  /**
   * The worker's first polls of a task it just submitted (default: `EARLY_POLLS`, as deployed); a
   * test makes them few, so the scheduled poller's run is the one that polls the task next.
   */
  earlyPolls?: WorkerOptions['earlyPolls'];
  /** Domains whose links the bot unfurls (default: `UNFURL_DOMAINS`, else app.lensmor.com). */
  unfurlDomains?: readonly string[];
  /**
   * Two workspaces (default: `DEV_WORKSPACES=2`): the app runs distributed (issue 15), both
   * workspaces installed through its OAuth pages against the local Slack, each with its own key.
   */
  twoWorkspaces?: boolean;
  logger?: Logger;
}

export interface DevStack {
  dynamoEndpoint: string;
  tableName: string;
  simulatorUrl: string;
  /** The local Function URL running the real `handlers/slack.ts` code path. */
  botUrl: string;
  /** The Request URL Slack would post commands and clicks to. */
  requestUrl: string;
  /** The local Slack: the page at `/`, and the Web API the bot calls. */
  slackUrl: string;
  /** Why the page is not on the port asked for (that one was taken), when it is not. */
  portNote?: string;
  slack: FakeSlack;
  /** The domains whose links the bot unfurls (the page sends it `link_shared` for these only). */
  unfurlDomains: readonly string[];
  sim: Simulator;
  apiKey: string;
  runPoll(): Promise<unknown>;
  runDigests(): Promise<unknown>;
  /** The hourly watch run (`handlers/watch.ts`), inline: each due channel checked here, no queue. */
  runWatch(): Promise<unknown>;
  /** Waits until the jobs the bot dispatched in-process have finished. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The whole bot on this machine: DynamoDB Local (in memory, table created), the service simulator,
 * the real Slack handler behind a local Function URL (jobs run in-process after the ack), the local
 * Slack page wired to it with signed requests, and the scheduled jobs on timers. `npm run dev` and the
 * browser test both start it.
 */
export async function startDevStack(options: DevStackOptions = {}): Promise<DevStack> {
  const logger = options.logger ?? createLogger({ level: 'warn' });
  const stops: Stops = [];
  let stopped: Promise<void> | undefined;
  // Last started, first stopped; twice is once.
  const stopAll = () => {
    stopped ??= (async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
    })();
    return stopped;
  };
  try {
    const { dynamoEndpoint, tableName } = await startTable(options, stops);
    const sim = await startSimulator(
      options.taskDurationMs !== undefined ? { taskDurationMs: options.taskDurationMs } : {},
    );
    stops.push(() => sim.close());
    const twoWorkspaces = options.twoWorkspaces ?? process.env.DEV_WORKSPACES === '2';
    // Fresh secrets per run: nothing but this local Slack can sign a request the bot accepts.
    const signingSecret = randomBytes(16).toString('hex');
    const clientSecret = randomBytes(16).toString('hex');
    const { slack, portNote } = await startLocalSlack(
      options,
      stops,
      twoWorkspaces ? clientSecret : undefined,
    );
    const unfurlDomains = options.unfurlDomains ?? unfurlDomainsOf(process.env);
    const env = {
      TABLE_NAME: tableName,
      AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
      EIS_BASE_URL: sim.url,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: slack.apiUrl,
      WORKER_MODE: 'inline',
      SPEND_APPROVERS: DEV_USERS.bob.id,
      UNFURL_DOMAINS: unfurlDomains.join(','),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // Distributed: tokens from the installs, keys from the table; else one token and one key.
      ...(twoWorkspaces
        ? {
            SLACK_CLIENT_ID: DEV_CLIENT_ID,
            SLACK_CLIENT_SECRET: clientSecret,
            SLACK_STATE_SECRET: randomBytes(16).toString('hex'),
          }
        : { EIS_API_KEY: DEV_API_KEY, SLACK_BOT_TOKEN: 'xoxb-local-dev' }),
    };
    const bot = await serveBot(
      env,
      { logger, ...(options.earlyPolls ? { earlyPolls: options.earlyPolls } : {}) },
      stops,
    );
    slack.connectApp({
      ...(twoWorkspaces ? { installUrl: `${bot.url}/slack/install` } : {}),
      requestUrl: bot.requestUrl,
      signingSecret,
      teamId: DEV_TEAM_ID,
      command: '/events',
      commandHelp: COMMAND_SPECS,
      shortcuts: DEV_SHORTCUTS,
      unfurlDomains,
    });
    if (twoWorkspaces) await installBoth(env, bot.url, sim);
    const jobs = scheduleJobs(env, options, logger, stops);
    const teams = twoWorkspaces ? [DEV_TEAM_ID, DEV_SECOND_TEAM.teamId] : [DEV_TEAM_ID];
    const channelName = (id: string) => `#${DEV_CHANNEL_NAMES[id] ?? id}`;
    slack.setPanel(panelOf(sim, jobs, { teams, channelName, apiKey: DEV_API_KEY }));

    return {
      dynamoEndpoint,
      tableName,
      simulatorUrl: sim.url,
      botUrl: bot.url,
      requestUrl: bot.requestUrl,
      slackUrl: slack.url.replace('127.0.0.1', 'localhost'),
      ...(portNote ? { portNote } : {}),
      slack,
      unfurlDomains,
      sim,
      apiKey: DEV_API_KEY,
      runPoll: jobs.runPoll,
      runDigests: jobs.runDigests,
      runWatch: jobs.runWatch,
      idle: bot.idle,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** DynamoDB Local (a shared one, or one of our own) with the bot's table in it. */
async function startTable(options: DevStackOptions, stops: Stops) {
  let dynamoEndpoint = options.dynamoEndpoint;
  if (!dynamoEndpoint) {
    const dynamo = await startDynamoDbLocal();
    stops.push(() => dynamo.stop());
    dynamoEndpoint = dynamo.endpoint;
  }
  // A shared DynamoDB Local gets a table of its own; a private one the plain name.
  const tableName = options.dynamoEndpoint ? `eventbot-dev-${randomUUID().slice(0, 8)}` : 'eventbot-dev';
  await ensureTable(createDocumentClient({ endpoint: dynamoEndpoint }), tableName);
  return { dynamoEndpoint, tableName };
}

/** The local Slack; with an OAuth client secret, a second workspace with its own member too. */
async function startLocalSlack(options: DevStackOptions, stops: Stops, clientSecret?: string) {
  const { id: secondId, ...second } = DEV_SECOND_TEAM.user;
  const slackOptions: FakeSlackOptions = {
    channels: [DEV_CHANNELS.general, DEV_CHANNELS.events],
    channelNames: DEV_CHANNEL_NAMES,
    users: {
      ...Object.fromEntries(Object.values(DEV_USERS).map(({ id, ...user }) => [id, user])),
      ...(clientSecret ? { [secondId]: { ...second, teamId: DEV_SECOND_TEAM.teamId } } : {}),
    },
    ...(clientSecret ? { oauth: { clientId: DEV_CLIENT_ID, clientSecret } } : {}),
    ...(options.slackDeadlines ? { slackDeadlines: true } : {}),
  };
  const { served: slack, note } = await listenOnPagePort(options.pagePort ?? ANY_FREE_PORT, (port) =>
    startFakeSlack({ ...slackOptions, port }),
  );
  stops.push(() => slack.close());
  return { slack, ...(note ? { portNote: note } : {}) };
}

/**
 * Both local workspaces install the app through its OAuth pages and the local Slack's consent, and
 * each connects its own simulator key (stored encrypted, as the app stores it).
 */
async function installBoth(env: NodeJS.ProcessEnv, botUrl: string, sim: Simulator) {
  sim.addKey(DEV_SECOND_TEAM.apiKey);
  const config = readEnv(env);
  const endpoint = config.AWS_ENDPOINT_URL_DYNAMODB;
  const store = createStore({
    client: createDocumentClient(endpoint ? { endpoint } : {}),
    tableName: config.TABLE_NAME,
    keyCipher: createKeyCipher(config),
  });
  const workspaces = [
    { teamId: DEV_TEAM_ID, apiKey: DEV_API_KEY },
    { teamId: DEV_SECOND_TEAM.teamId, apiKey: DEV_SECOND_TEAM.apiKey },
  ];
  for (const { teamId, apiKey } of workspaces) {
    const status = await installApp({ installUrl: `${botUrl}/slack/install`, teamId });
    if (status !== 200) throw new Error(`installing the app in ${teamId} failed (HTTP ${status})`);
    await store.workspaces.putServiceKey({ teamId, serviceKey: apiKey, connectedBy: DEV_USERS.bob.id });
  }
}

/**
 * The real Slack handler behind a local Function URL, its jobs run by a worker built with `worker`;
 * `idle` waits for the jobs it ran in-process.
 */
async function serveBot(env: NodeJS.ProcessEnv, worker: WorkerOptions & { logger: Logger }, stops: Stops) {
  const { logger } = worker;
  const loadSlack = createSlackHandlerLoader(env, { logger, inlineWorker: inlineWorker(env, worker) });
  const http = await serveLambda(async (event, context) => (await loadSlack()).handler(event, context));
  stops.push(() => http.close());
  const idle = async () => {
    await (await loadSlack()).dispatch.idle?.();
  };
  stops.push(idle);
  return { url: http.url, requestUrl: `${http.url}/slack/events`, idle };
}
