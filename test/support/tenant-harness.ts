import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { createKeyCipher } from '../../src/platform/config/kms-key-cipher.ts';
import { readEnv } from '../../src/platform/config/env.ts';
import { serveLambda } from '../../local/lambda-http.ts';
import { type FakeSlack, startFakeSlack } from '../../local/fake-slack/fake-slack.ts';
import { createMemoryLogger } from '../../src/platform/log.ts';
import {
  createRuntimeLoader,
  createScheduledJobs,
  createScheduledLoader,
  unlockPollingDeps,
} from '../../src/roots/runtime.ts';
import { pollUnlockTasks } from '../../src/domain/unlock-polling.ts';
import { scheduledWebClient } from '../../src/slack/scheduled.ts';
import { dispatchDueWatches, type WatchCheckRequest } from '../../src/scheduling/watch-dispatch.ts';
import { type Simulator, startSimulator } from '../../simulator/server.ts';
import type { Job } from '../../src/slack/kit/jobs.ts';
import { createWorker } from '../../src/slack/worker/index.ts';
import { createSlackHandlerLoader } from '../../src/roots/slack-runtime.ts';
import { createStore } from '../../src/store/index.ts';
import { scanAll } from './dynamo.ts';
import { NO_TRACING, type Tracing } from '../../src/platform/tracing.ts';
import { inlineWorker, workerDepsOf } from '../../src/roots/worker-runtime.ts';
import { manualClock } from './store-support.ts';
import { SIGNING_SECRET } from './bot.ts';
import { CLIENT_ID, CLIENT_SECRET, STATE_SECRET } from './distributed-bot.ts';
import { createTestTable } from './dynamo.ts';
import { type DynamoFaultProxy, type FaultRule, startDynamoFaultProxy } from './dynamo-fault-proxy.ts';
import { createKillSwitch, type KillSwitch } from './kill-switch.ts';
import { directory, enterpriseIn, SEQUENCE_START, simulatorTodayFor, tenantIn } from './tenant-directory.ts';

/**
 * The distributed app (issue 15) for many short multi-tenant sequences. Built once: the simulator, the
 * fake Slack (knowing every sequence's workspaces and orgs), the DynamoDB fault proxy, the HTTP server,
 * one table with the Slack handler, workers and scheduled jobs over it, one business clock and one
 * logger. Per sequence: fresh workspaces (A and B, C in a Grid org of its own) and fresh service keys,
 * and the table emptied when it ends, so sequences never see each other's items, messages or org-wide
 * installs. The charge job can run on a worker that dies after a given number of calls (a Lambda
 * killed mid-charge).
 */

export {
  enterpriseIn,
  SEQUENCE_START,
  sequenceStartFor,
  simulatorTodayFor,
  type Tenant,
} from './tenant-directory.ts';

export async function startTenantStack(slots = 4_000) {
  const sim: Simulator = await startSimulator({ latencyMs: 0, today: simulatorTodayFor(SEQUENCE_START) });
  const { tenants, users, enterprises } = directory(slots);
  const slack: FakeSlack = await startFakeSlack({
    channels: tenants.flatMap((t) => [t.channel, t.side]),
    users,
    enterprises,
    oauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenLifetimeSeconds: 43_200 },
  });
  const table = await createTestTable();
  const proxy = await startDynamoFaultProxy({ target: table.endpoint });
  const clock = manualClock(SEQUENCE_START);
  const logger = createMemoryLogger();
  let faulting = false;
  const tracing = proxyOnlyWhenFaulting(proxy.endpoint, table.endpoint, () => faulting);
  const app = startApp({ sim, slack, proxy, clock, logger, table, tracing });
  const http = await serveLambda(async (event, context) => (await app.load()).handler(event, context));
  slack.connectApp({ requestUrl: `${http.url}/slack/events`, signingSecret: SIGNING_SECRET });
  let nextSlot = 0;

  return {
    sim,
    slack,
    proxy,
    clock,
    logger,
    url: http.url,
    /** The next slot's three workspaces and Grid org, on the one app and table. */
    begin() {
      const slot = nextSlot++;
      if (slot >= slots) throw new Error(`the tenant stack has only ${slots} slots`);
      clock.set(SEQUENCE_START);
      return {
        ...app,
        enterpriseId: enterpriseIn(slot),
        tenants: [tenantIn(slot, 'A'), tenantIn(slot, 'B'), tenantIn(slot, 'C')] as const,
      };
    },
    /** The app's DynamoDB requests go through the fault proxy, `rule` deciding which fail or are lost. */
    faultDynamo(rule: FaultRule) {
      faulting = true;
      proxy.setRule(rule);
    },
    /** DynamoDB healthy again (the app's requests go straight to it). */
    healDynamo() {
      faulting = false;
      proxy.clearRule();
    },
    /** After a sequence: its jobs finished, its faults cleared and every item it left deleted. */
    async end() {
      faulting = false;
      proxy.clearRule();
      sim.clearFaults();
      slack.clearFailures();
      app.disarm();
      await app.idle();
      await emptyTable(table);
    },
    /**
     * DynamoDB's TTL, as AWS runs it within days: every item whose `expiresAt` is past on the business
     * clock is deleted. The items deleted (history the invariants still count).
     */
    async sweepExpired() {
      const at = clock.now().getTime() / 1000;
      const expired = (await scanAll(table)).filter(
        (item) => typeof item.expiresAt === 'number' && item.expiresAt <= at,
      );
      await deleteItems(table, expired);
      return expired;
    },
    /** How many charge workers died, over every sequence. */
    kills: () => app.kills(),
    /** A fresh simulator account (one key: the simulator keeps one account per key). */
    newKey: (balance = 50_000) => {
      const key = `sk_test_${randomUUID().replace(/-/g, '')}`;
      sim.addKey(key, { balance });
      return key;
    },
    async close() {
      await app.idle();
      await Promise.all([http.close(), slack.close(), sim.close(), proxy.close()]);
    },
  };
}

type TestTable = Awaited<ReturnType<typeof createTestTable>>;
type Shared = {
  sim: Simulator;
  slack: FakeSlack;
  proxy: DynamoFaultProxy;
  clock: ReturnType<typeof manualClock>;
  logger: ReturnType<typeof createMemoryLogger>;
  table: TestTable;
  tracing: Tracing;
};

/**
 * The app's AWS clients send DynamoDB requests straight to DynamoDB Local while no fault is injected,
 * through the fault proxy while `faulting()`: the proxy's hop costs every request a second HTTP round
 * trip, most of a sequence's time. (The runtime's tracing hook is where a test can reach its clients.)
 */
function proxyOnlyWhenFaulting(
  proxyEndpoint: string,
  directEndpoint: string,
  faulting: () => boolean,
): Tracing {
  const [proxy, direct] = [new URL(proxyEndpoint), new URL(directEndpoint)];
  type Request = { hostname?: string; port?: number };
  type Next = (args: { request: unknown }) => Promise<unknown>;
  type Stack = { add(middleware: (next: Next) => Next, options: { step: string; name: string }): void };
  return {
    ...NO_TRACING,
    captureAwsClient: (client) => {
      (client as { middlewareStack?: Stack }).middlewareStack?.add(
        (next) => (args) => {
          const request = args.request as Request;
          if (!faulting() && request.hostname === proxy.hostname && request.port === Number(proxy.port)) {
            request.hostname = direct.hostname;
            request.port = Number(direct.port);
          }
          return next(args);
        },
        { step: 'finalizeRequest', name: 'skipFaultProxyWhileHealthy' },
      );
      return client;
    },
  };
}

/** The table's Slack handler, workers and scheduled jobs (reaching DynamoDB through the proxy). */
function startApp({ sim, slack, proxy, clock, logger, table, tracing }: Shared) {
  const env: Record<string, string> = {
    TABLE_NAME: table.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
    EIS_BASE_URL: sim.url,
    SLACK_API_URL: slack.apiUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_CLIENT_ID: CLIENT_ID,
    SLACK_CLIENT_SECRET: CLIENT_SECRET,
    SLACK_STATE_SECRET: STATE_SECRET,
    WORKER_MODE: 'inline',
  };
  const workerOptions = { logger, now: clock.now, earlyPolls: { count: 0, everyMs: 0 }, tracing };
  const realWorker = inlineWorker(env, workerOptions);
  const killable = killableWorker(env, workerOptions);
  let armed: { kind: Job['kind']; kill: KillSwitch } | undefined;
  let kills = 0;
  const worker = async (teamId: string) => {
    const real = await realWorker(teamId);
    return {
      handle: async (job: Job) => {
        const kill = job.kind === armed?.kind ? armed.kill : undefined;
        if (!kill) return real.handle(job);
        armed = undefined;
        if ((await kill.race((await killable(teamId, kill)).handle(job))) === 'killed') kills++;
      },
    };
  };
  const load = createSlackHandlerLoader(env, { logger, now: clock.now, inlineWorker: worker, tracing });
  const scheduled = createScheduledLoader(env, {
    logger,
    now: clock.now,
    sleep: () => Promise.resolve(),
    tracing,
  });
  const loadRuntime = createRuntimeLoader(env, { logger, now: clock.now, tracing });
  /**
   * One channel's scheduled check (a slice of it) on a runtime whose service client and store die
   * after `kill`'s step: its summary, or `killed`.
   */
  const killableCheck = async (request: WatchCheckRequest, kill: KillSwitch) => {
    const runtime = await loadRuntime(request.teamId);
    const jobs = createScheduledJobs(
      { ...runtime, store: kill.wrap(runtime.store, 'store'), eis: kill.wrap(runtime.eis, 'eis') },
      { sleep: () => Promise.resolve() },
    );
    const check = jobs.checkWatchedChannel(request);
    return (await kill.race(check)) === 'killed' ? ('killed' as const) : check;
  };
  /**
   * A poll run of the workspace's tasks whose Lambda dies as it posts its first reply, after leasing
   * the task: the post never reaches Slack and nothing after it runs (one task at a time, so no other
   * is caught half-way). The reply it died posting, or undefined when it finished posting none.
   */
  const dyingPoll = async (teamId: string): Promise<DiedPosting | undefined> => {
    const runtime = await loadRuntime(teamId);
    const web = scheduledWebClient(runtime.access.botToken, runtime.env.SLACK_API_URL);
    let die: (posting: DiedPosting) => void = () => {};
    const dead = new Promise<DiedPosting>((resolve) => (die = resolve));
    const postMessage = (args: { channel: string; thread_ts?: string; text?: string }) => {
      die({ channel: args.channel, threadTs: args.thread_ts ?? '', text: args.text ?? '' });
      return new Promise<never>(() => {});
    };
    const chat = new Proxy(web.chat, {
      get: (target, property, receiver): unknown =>
        property === 'postMessage' ? postMessage : Reflect.get(target, property, receiver),
    });
    const dying = new Proxy(web, {
      get: (target, property, receiver): unknown =>
        property === 'chat' ? chat : Reflect.get(target, property, receiver),
    });
    const run = pollUnlockTasks({
      ...unlockPollingDeps(runtime, dying),
      concurrency: 1,
      sleep: () => Promise.resolve(),
    });
    return Promise.race([run.then(() => undefined), dead]);
  };
  return {
    load,
    table,
    // The test's own reads and setup writes: straight to DynamoDB Local, never faulted.
    truth: createStore({
      client: table.client,
      tableName: table.tableName,
      now: clock.now,
      keyCipher: createKeyCipher(readEnv(env)),
    }),
    /** Arms a kill for the next charge job: its worker dies after `steps` calls (or as `kill` says, its trace kept). */
    killNextCharge: (steps: number | KillSwitch) => {
      armed = { kind: 'charge', kill: typeof steps === 'number' ? createKillSwitch(steps) : steps };
    },
    /** Arms a kill for the next job of `kind` (an import's, say): its worker dies after `steps` calls. */
    killNextJob: (kind: Job['kind'], steps: number) => {
      armed = { kind, kill: createKillSwitch(steps) };
    },
    disarm: () => {
      armed = undefined;
    },
    kills: () => kills,
    /** Runs `job` on the workspace's worker, as a redelivered Lambda event would. */
    runJob: async (teamId: string, job: Job) => (await worker(teamId)).handle(job),
    /** Waits until every job the handler dispatched has finished (or its worker died). */
    idle: async () => {
      await (await load()).dispatch.idle?.();
    },
    scheduled: () => scheduled(),
    /**
     * The hourly watch run, inline (no queue): the due channels of the workspaces that can be served,
     * fairly, each checked by `check` (by default the scheduled check; a test's may kill it mid-way).
     */
    watchRun: async (check?: (request: WatchCheckRequest) => Promise<{ next?: WatchCheckRequest }>) =>
      dispatchDueWatches({
        workspaces: scheduled.store.scheduledWork,
        dueIn: scheduled.store.watchLists.dueIn,
        servable: scheduled.servable(),
        delivery: {
          kind: 'inline',
          check: check ?? (async (request) => (await scheduled()).checkWatchedChannel(request)),
        },
        logger,
        now: clock.now,
      }),
    killableCheck,
    dyingPoll,
  };
}

/** The reply a dying poll run was posting when its Lambda ended. */
export interface DiedPosting {
  channel: string;
  threadTs: string;
  text: string;
}
export type TenantStack = Awaited<ReturnType<typeof startTenantStack>>;

/**
 * The worker as `createWorkerLoader` builds it, its service client, store and Slack wrapped in `kill`:
 * after the kill's step its calls never return, as in a Lambda that died there.
 */
function killableWorker(
  env: Record<string, string>,
  options: { logger: ReturnType<typeof createMemoryLogger>; now: () => Date; tracing: Tracing },
) {
  const loadRuntime = createRuntimeLoader(env, options);
  return async (teamId: string, kill: KillSwitch) => {
    const runtime = await loadRuntime(teamId);
    const deps = workerDepsOf(runtime, { earlyPolls: { count: 0, everyMs: 0 } });
    return createWorker({
      ...deps,
      eis: kill.wrap(deps.eis, 'eis'),
      store: kill.wrap(deps.store, 'store'),
      slack: kill.wrap(deps.slack, 'slack'),
    });
  };
}

/**
 * `user` installs the app through its real pages: the install page (its state cookie kept), Slack's
 * consent naming the installing user (for the whole org with `enterpriseId`), the redirect back.
 */
export async function installAs(
  stack: TenantStack,
  input: { teamId: string; userId: string; enterpriseId?: string },
): Promise<number> {
  const page = await fetch(`${stack.url}/slack/install`, { redirect: 'manual' });
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const href = /href="([^"]*oauth\/v2\/authorize[^"]*)"/.exec(await page.text())?.[1];
  if (!href) throw new Error(`no "Add to Slack" link on the install page (HTTP ${page.status})`);
  const authorize = new URL(href.replaceAll('&amp;', '&'));
  const code = stack.slack.oauth.authorize({
    teamId: input.teamId,
    userId: input.userId,
    ...(input.enterpriseId ? { enterpriseId: input.enterpriseId, isEnterpriseInstall: true } : {}),
  });
  const back = new URL(authorize.searchParams.get('redirect_uri') ?? `${stack.url}/slack/oauth_redirect`);
  back.searchParams.set('code', code);
  back.searchParams.set('state', authorize.searchParams.get('state') ?? '');
  const done = await fetch(back, { headers: { cookie }, redirect: 'manual' });
  await done.text();
  return done.status;
}

/** Deletes every item of the table. */
const emptyTable = async (table: TestTable) => deleteItems(table, await scanAll(table));

/** Deletes `items` (25 a request, as BatchWriteItem takes). */
async function deleteItems(table: TestTable, items: Record<string, unknown>[]): Promise<void> {
  type Requests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];
  for (let at = 0; at < items.length; at += 25) {
    let requests: Requests | undefined = items
      .slice(at, at + 25)
      .map(({ pk, sk }) => ({ DeleteRequest: { Key: { pk, sk } } }));
    while (requests && requests.length > 0) {
      const answer: BatchWriteCommandOutput = await table.client.send(
        new BatchWriteCommand({ RequestItems: { [table.tableName]: requests } }),
      );
      requests = answer.UnprocessedItems?.[table.tableName];
    }
  }
}
