import { randomBytes, randomUUID } from 'node:crypto';
import { readEnv } from '../src/platform/config/env.ts';
import { createKeyCipher } from '../src/platform/config/kms-key-cipher.ts';
import { createLogger, type Logger } from '../src/platform/log.ts';
import { createScheduledLoader } from '../src/roots/runtime.ts';
import { createWatchRun } from '../src/roots/watch-runtime.ts';
import { DEV_API_KEY, KNOWN_COMPANY_NAME, type Simulator, startSimulator } from '../simulator/server.ts';
import { COMMAND_SPECS } from '../src/slack/commands/index.ts';
import { createSlackHandlerLoader } from '../src/roots/slack-runtime.ts';
import { inlineWorker } from '../src/roots/worker-runtime.ts';
import { createStore } from '../src/store/index.ts';
import { createDocumentClient, ensureTable } from '../src/store/table.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import { serveLambda } from './lambda-http.ts';
import {
  type FakeSlack,
  type LocalPanel,
  type LocalShortcut,
  startFakeSlack,
} from './fake-slack/fake-slack.ts';
import { installApp } from './fake-slack/oauth.ts';

/**
 * The people of the local workspace: Alice asks for unlocks, Bob may also approve them, Dana is a
 * workspace admin (Slack's `is_admin`: the Home's Workspace settings are hers to change).
 */
export const DEV_USERS = {
  alice: { id: 'U0ALICE', name: 'Alice', tz: 'Europe/Berlin', title: 'Requester' },
  bob: { id: 'U0BOB', name: 'Bob', tz: 'America/New_York', title: 'Spend approver (SPEND_APPROVERS)' },
  dana: {
    id: 'U0DANA',
    name: 'Dana (admin)',
    tz: 'Europe/London',
    title: 'Workspace admin: opens Workspace settings on the Home',
    isAdmin: true,
  },
} as const;
export const DEV_CHANNELS = { general: 'C0GENERAL', events: 'C0EVENTS' } as const;
export const DEV_TEAM_ID = 'T0LOCAL';
/** With two workspaces (`DEV_WORKSPACES=2`): the second one, its member (its admin too) and its service key. */
export const DEV_SECOND_TEAM = {
  teamId: 'T0SECOND',
  user: {
    id: 'U0CAROL',
    name: 'Carol (admin)',
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
  /** Port of the local Slack page (default: a free one). */
  slackPort?: number;
  /** How often the unlock-task poller runs (default 3 s; Lambda runs it every minute). */
  pollEveryMs?: number;
  /** How often the digest job runs (default every 5 minutes, as on AWS). */
  digestEveryMs?: number;
  /** How often the watch run checks the due watched channels (default hourly, as on AWS). */
  watchEveryMs?: number;
  /**
   * How much faster than real time the poller's clock runs (default 10), so the service's 30 s
   * back-off between polls of an unfinished task passes in 3 s.
   */
  pollClockSpeed?: number;
  /** How long the simulator takes to finish an unlock task (default: the simulator's). */
  taskDurationMs?: number;
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

/** A clock that runs `speed` times faster than real time from now on. */
export function fastClock(speed: number, realNow: () => number = Date.now): () => Date {
  const start = realNow();
  return () => new Date(start + (realNow() - start) * speed);
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
    const slack = await startLocalSlack(options, stops, twoWorkspaces ? clientSecret : undefined);
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
    const bot = await serveBot(env, logger, stops);
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
    slack.setPanel(panelOf(sim, jobs));

    return {
      dynamoEndpoint,
      tableName,
      simulatorUrl: sim.url,
      botUrl: bot.url,
      requestUrl: bot.requestUrl,
      slackUrl: slack.url.replace('127.0.0.1', 'localhost'),
      slack,
      unfurlDomains,
      sim,
      apiKey: DEV_API_KEY,
      ...jobs,
      idle: bot.idle,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** How to undo what was started, in the order it was started. */
type Stops = (() => Promise<void>)[];
type Job = ReturnType<typeof exclusive>;

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
  const slack = await startFakeSlack({
    ...(options.slackPort ? { port: options.slackPort } : {}),
    channels: [DEV_CHANNELS.general, DEV_CHANNELS.events],
    channelNames: { [DEV_CHANNELS.general]: 'general', [DEV_CHANNELS.events]: 'events' },
    users: {
      ...Object.fromEntries(Object.values(DEV_USERS).map(({ id, ...user }) => [id, user])),
      ...(clientSecret ? { [secondId]: { ...second, teamId: DEV_SECOND_TEAM.teamId } } : {}),
    },
    ...(clientSecret ? { oauth: { clientId: DEV_CLIENT_ID, clientSecret } } : {}),
  });
  stops.push(() => slack.close());
  return slack;
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

/** The real Slack handler behind a local Function URL; `idle` waits for the jobs it ran in-process. */
async function serveBot(env: NodeJS.ProcessEnv, logger: Logger, stops: Stops) {
  const loadSlack = createSlackHandlerLoader(env, { logger, inlineWorker: inlineWorker(env, { logger }) });
  const http = await serveLambda(async (event, context) => (await loadSlack()).handler(event, context));
  stops.push(() => http.close());
  const idle = async () => {
    await (await loadSlack()).dispatch.idle?.();
  };
  stops.push(idle);
  return { url: http.url, requestUrl: `${http.url}/slack/events`, idle };
}

/** The scheduled jobs, on timers as on AWS (only faster for the poller) and on demand. */
function scheduleJobs(env: NodeJS.ProcessEnv, options: DevStackOptions, logger: Logger, stops: Stops) {
  const loadPoll = createScheduledLoader(env, {
    logger,
    now: fastClock(options.pollClockSpeed ?? 10),
  });
  // Real time for the reconciler and digests: confirmation deadlines are kept on the real clock.
  const loadRealTime = createScheduledLoader(env, { logger });
  const runPoll = exclusive(async () => {
    await (await loadRealTime()).reconcileConfirmations();
    return (await loadPoll()).pollUnlockTasks();
  });
  const runDigests = exclusive(async () => (await loadRealTime()).runDigests());
  // No WATCH_QUEUE_URL in `env`: the due channels are checked inline, as a deployment without a queue.
  const watchRun = createWatchRun(loadRealTime, env);
  const runWatch = exclusive(() => watchRun());
  const every = (ms: number, job: Job, name: string) => {
    const timer = setInterval(() => {
      job().catch((error: unknown) => logger.error('local scheduled job failed', { job: name, error }));
    }, ms);
    stops.push(async () => {
      clearInterval(timer);
      await job.running?.catch(() => {});
    });
  };
  every(options.pollEveryMs ?? 3_000, runPoll, 'poll-tasks');
  every(options.digestEveryMs ?? 5 * 60_000, runDigests, 'digest');
  every(options.watchEveryMs ?? 60 * 60_000, runWatch, 'watch');
  return { runPoll, runDigests, runWatch };
}

type ScheduledJobs = ReturnType<typeof scheduleJobs>;

/** The page's side panel: the simulator's account, and the jobs a developer can run now. */
function panelOf(sim: Simulator, { runPoll, runDigests, runWatch }: ScheduledJobs): LocalPanel {
  const account = async () => {
    const response = await fetch(`${sim.url}/__sim/account`, {
      headers: { authorization: `Bearer ${DEV_API_KEY}` },
    });
    const body = (await response.json()) as { balance?: { totalBalance?: number }; ledger?: unknown[] };
    return { balance: body.balance?.totalBalance ?? null, ledger: body.ledger ?? [] };
  };
  return {
    account,
    newExhibitor: () => Promise.resolve(newExhibitorAppears(sim)),
    jobs: {
      'poll-unlock-tasks': runPoll,
      'send-digests': runDigests,
      'check-watches': runWatch,
      // The service finishing every pending unlock task at once, for when a developer cannot wait.
      'finish-service-tasks': async () => {
        sim.completeTasks();
        return runPoll();
      },
    },
  };
}

/** The simulator adds the known company to its next upcoming show, and says which in plain words. */
export function newExhibitorAppears(sim: Simulator): string {
  const appearance = sim.newExhibitorAppears();
  if (!appearance) return `${KNOWN_COMPANY_NAME} already exhibits at every upcoming event in the simulator.`;
  const { exhibitor, event } = appearance;
  return (
    `${exhibitor.companyName} (${exhibitor.domain}) now exhibits at ${event.name}, ${event.city}, ` +
    `from ${event.dateStart} (event ${event.eventId}). A channel watching it hears of it at its next check; \`/events watch check\` checks now.`
  );
}

/** One run at a time: a call while the last run is still going joins that run. */
function exclusive<T>(run: () => Promise<T>): (() => Promise<T>) & { readonly running?: Promise<T> } {
  let current: Promise<T> | undefined;
  const start = () => {
    current ??= run().finally(() => {
      current = undefined;
    });
    return current;
  };
  return Object.defineProperty(start, 'running', { get: () => current });
}
