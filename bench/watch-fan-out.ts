import type { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { accountKey } from '../src/domain/watch/index.ts';
import { createScheduledLoader } from '../src/roots/runtime.ts';
import { consumeWatchChecks } from '../src/scheduling/watch-consumer.ts';
import type { WatchCheckRequest } from '../src/scheduling/watch-dispatch.ts';
import { createWatchRun } from '../src/roots/watch-runtime.ts';
import { startSimulator } from '../simulator/server.ts';
import { createStore } from '../src/store/index.ts';
import { WATCH_CHECK_BATCH_SIZE } from '../infra/constructs/watch-queue.ts';
import { MAX_IN_FLIGHT_PER_KEY } from '../src/eis/limiter.ts';
import { fmt, fmtRatio, ratio, type Row } from './report.ts';
import { manualClock } from './schedule.ts';
import { freshTable, quietLogger, scheduledEnv } from './services.ts';
import { startSlackStandIn } from './slack-stand-in.ts';

/**
 * Account watch at scale, as the stack runs it: the hourly run (`createWatchRun`, queue mode, its
 * messages kept by a stand-in queue) and the queue's consumer (`consumeWatchChecks` over the engine's
 * `checkWatchedChannel`, batches of 5, one workspace's checks one after another as its FIFO group
 * delivers them), against DynamoDB Local, the simulator and the Slack stand-in, budget 0.
 * `WATCH.channels` channels of `WATCH.accountsPerChannel` accounts: most are companies the service
 * knows, `WATCH.unknownPerChannel` of each channel's are names it has never seen.
 *
 * Two passes. Counting (the simulator at 0 ms, every account): calls per account on the first day
 * (every account resolved) and on a later day (steady state), alerts, alerts posted again by
 * re-delivered messages, credits. Timing (the simulator at `WATCH.latencyMs`): one channel's checks,
 * first day and later day; the whole deployment's time follows from it (one workspace's channels run
 * one after another).
 */
export const WATCH = {
  channels: Number(process.env.BENCH_WATCH_CHANNELS ?? 50) || 50,
  accountsPerChannel: 200,
  unknownPerChannel: 20,
  latencyMs: 200,
};
const TEAM = 'T0BENCH';
const DAY = 24 * 60 * 60_000;

/** The queue as the consumer sees it: each message body kept in the order sent. */
function standInQueue() {
  const bodies: string[] = [];
  const sqs = {
    send: (command: SendMessageBatchCommand) => {
      for (const entry of command.input.Entries ?? []) bodies.push(entry.MessageBody ?? '');
      return Promise.resolve({ Successful: [], Failed: [] });
    },
  };
  return { bodies, sqs: sqs as never };
}

async function startWorld(dynamoEndpoint: string, name: string, latencyMs: number, channels: number) {
  const startedAt = Date.parse('2026-12-01T09:00:00Z');
  const clock = manualClock(startedAt);
  const sim = await startSimulator({ now: clock.now, latencyMs });
  const slack = await startSlackStandIn(clock.now);
  const tableName = `eventbot-bench-watch-${name}`;
  const client = await freshTable(dynamoEndpoint, tableName);
  const { logger, problems } = quietLogger();
  const env = {
    ...scheduledEnv({ tableName, dynamoEndpoint, simUrl: sim.url, slackApiUrl: slack.apiUrl }),
    WATCH_QUEUE_URL: 'https://sqs.local/000000000000/watch.fifo',
  };
  const store = createStore({ client, tableName, now: clock.date });
  const known = sim.seed.exhibitors.map((exhibitor) => exhibitor.companyName);
  for (let channel = 0; channel < channels; channel++) {
    const names = [
      ...Array.from(
        { length: WATCH.accountsPerChannel - WATCH.unknownPerChannel },
        (_, i) => known[(channel * 37 + i) % known.length] ?? '',
      ),
      ...Array.from({ length: WATCH.unknownPerChannel }, (_, i) => `Nowhere Widgets ${channel}x${i} Ltd`),
    ];
    const inputs = names.flatMap((label) => {
      const key = accountKey(label);
      return key ? [{ key, label, kind: 'target' as const }] : [];
    });
    await store.watchLists.addAccounts(TEAM, `C0WATCH${channel}`, inputs, 'U0BENCH');
  }
  const loader = createScheduledLoader(env, { logger, now: clock.date });
  const balance = () => sim.balance(env.EIS_API_KEY);
  const close = async () => {
    await Promise.all([slack.close(), sim.close()]);
    client.destroy();
  };
  return { startedAt, clock, sim, slack, store, env, loader, problems, balance, close };
}

type World = Awaited<ReturnType<typeof startWorld>>;

/** Top-level posts (alerts) in the watch channels, and those beyond one per channel and day. */
function alertsIn(world: World) {
  const days = [...world.slack.posts.entries()]
    .filter(([thread]) => thread.startsWith('C0WATCH') && thread.endsWith('/'))
    .flatMap(([thread, times]) => times.map((at) => `${thread}${Math.floor((at - world.startedAt) / DAY)}`));
  return { alerts: days.length, duplicated: days.length - new Set(days).size };
}

/** One hourly run, then its messages consumed in batches, in order; answers the calls and the time. */
async function day(world: World, twice = false) {
  const { bodies, sqs } = standInQueue();
  const run = await createWatchRun(world.loader, world.env, { sqs, now: world.clock.date })();
  const jobs = await world.loader();
  let calls = 0;
  let appeared = 0;
  let failed = 0;
  const started = performance.now();
  const records = bodies.map((body, i) => ({ messageId: `m${i}`, body }));
  const deps = {
    check: async (request: WatchCheckRequest) => {
      const summary = await jobs.checkWatchedChannel(request);
      calls += summary.serviceCalls;
      appeared += summary.appeared;
      return summary;
    },
    logger: jobs.logger,
  };
  for (let start = 0; start < records.length; start += WATCH_CHECK_BATCH_SIZE) {
    const batch = { Records: records.slice(start, start + WATCH_CHECK_BATCH_SIZE) };
    // `twice`: the batch is delivered again while its first delivery still runs (a visibility timeout
    // ran out), so two consumers check the same channels at once.
    const answers = await Promise.all(
      (twice ? [batch, batch] : [batch]).map((event) => consumeWatchChecks(event, deps)),
    );
    failed += answers.reduce((sum, answer) => sum + answer.batchItemFailures.length, 0);
  }
  return {
    sent: run.sent,
    calls,
    appeared,
    failed,
    seconds: (performance.now() - started) / 1000,
    records,
    jobs,
  };
}

export interface WatchResult {
  settings: typeof WATCH;
  accounts: number;
  /** Service calls per account: the first day (every account resolved), a later day. */
  firstDayCallsPerAccount: number;
  laterDayCallsPerAccount: number;
  /** Seconds to check one channel at `latencyMs`: first day, later day. */
  channelSeconds: { firstDay: number; laterDay: number };
  /** One workspace's channels run one after another: the channel's time × channels. */
  allSeconds: { firstDay: number; laterDay: number };
  alerts: number;
  /** Checks that failed (returned to the queue). */
  failedChecks: number;
  /** Alerts posted again by every message delivered a second time. */
  duplicated: number;
  creditsSpent: number;
  upcomingShows: number;
  problems: number;
}

/** A watched company (the seed's first) is added to an upcoming show it is not at, a week out or more. */
function appearLater(world: World) {
  const company = world.sim.seed.exhibitors[0];
  const weekOut = new Date(world.clock.now() + 7 * DAY).toISOString().slice(0, 10);
  const event = world.sim.events.find(
    (candidate) => candidate.dateStart >= weekOut && company && !candidate.exhibitorIds.includes(company.id),
  );
  if (!company || !event) throw new Error('the simulator has no show to add a watched company to');
  world.sim.changeData({ kind: 'appear', exhibitor: company.id, event: event.id });
}

async function counting(dynamoEndpoint: string, log: (line: string) => void) {
  const world = await startWorld(dynamoEndpoint, 'count', 0, WATCH.channels);
  try {
    const before = world.balance();
    const first = await day(world, true);
    log(
      `  watch: first day, ${first.sent} channels, ${first.calls} service calls, ${first.appeared} appeared`,
    );
    appearLater(world);
    world.clock.advanceTo(world.clock.now() + DAY + 60_000);
    const later = await day(world, true);
    log(
      `  watch: a day later, ${later.sent} channels, ${later.calls} service calls, ${later.appeared} appeared`,
    );
    const { alerts, duplicated } = alertsIn(world);
    const upcomingShows = world.sim.events.filter((event) => event.dateStart >= world.sim.today).length;
    return {
      first,
      later,
      alerts,
      duplicated,
      failed: first.failed + later.failed,
      spent: before - world.balance(),
      upcomingShows,
      problems: world.problems.length,
    };
  } finally {
    await world.close();
  }
}

async function timing(dynamoEndpoint: string, log: (line: string) => void) {
  const world = await startWorld(dynamoEndpoint, 'time', WATCH.latencyMs, 1);
  try {
    const first = await day(world);
    world.clock.advanceTo(world.clock.now() + DAY + 60_000);
    const later = await day(world);
    log(
      `  watch: one channel at ${WATCH.latencyMs} ms: ${fmt(first.seconds)} s, then ${fmt(later.seconds)} s`,
    );
    return { first: first.seconds, later: later.seconds, problems: world.problems.length };
  } finally {
    await world.close();
  }
}

export async function measureWatch(
  dynamoEndpoint: string,
  log: (line: string) => void,
): Promise<WatchResult> {
  const counted = await counting(dynamoEndpoint, log);
  const timed = await timing(dynamoEndpoint, log);
  const accounts = WATCH.channels * WATCH.accountsPerChannel;
  return {
    settings: WATCH,
    accounts,
    firstDayCallsPerAccount: counted.first.calls / accounts,
    laterDayCallsPerAccount: counted.later.calls / accounts,
    channelSeconds: { firstDay: timed.first, laterDay: timed.later },
    allSeconds: { firstDay: timed.first * WATCH.channels, laterDay: timed.later * WATCH.channels },
    alerts: counted.alerts,
    failedChecks: counted.failed,
    duplicated: counted.duplicated,
    creditsSpent: counted.spent,
    upcomingShows: counted.upcomingShows,
    problems: counted.problems + timed.problems,
  };
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)} min ${fmt(seconds % 60)} s`;

export function watchRows(result: WatchResult): Row[] {
  const n = `${fmt(result.accounts)} accounts over ${fmt(result.settings.channels)} channels`;
  // The naive way: each account's name searched in every upcoming show's exhibitor list, every day.
  const naiveCalls = result.upcomingShows;
  const naiveSeconds =
    (result.accounts * naiveCalls * result.settings.latencyMs) / 1000 / MAX_IN_FLIGHT_PER_KEY;
  const day = 24 * 60 * 60;
  return [
    [
      `watch, ${n}: service calls per account per day, a later day (first day, every account resolved: ${fmt(result.firstDayCallsPerAccount, 1)}); baseline: one keyword search per account per upcoming show`,
      fmt(result.laterDayCallsPerAccount, 2),
      fmt(naiveCalls),
      '—',
      fmtRatio(ratio(result.laterDayCallsPerAccount, naiveCalls)),
      '— (no target)',
    ],
    [
      `… time to check all, simulator at ${fmt(result.settings.latencyMs)} ms, one workspace's channels one after another (one channel measured × ${fmt(result.settings.channels)}); first day ${minutes(result.allSeconds.firstDay)}; baseline at ${MAX_IN_FLIGHT_PER_KEY} calls at once`,
      minutes(result.allSeconds.laterDay),
      minutes(naiveSeconds),
      '—',
      fmtRatio(ratio(result.allSeconds.laterDay, naiveSeconds)),
      `within a day: ${result.allSeconds.firstDay < day && result.allSeconds.laterDay < day ? '**met**' : '**missed**'}`,
    ],
    [
      `… alerts posted; alerts posted again with every message delivered twice at once; checks failed; credits spent with budget 0`,
      `${fmt(result.alerts)}; ${fmt(result.duplicated)}; ${fmt(result.failedChecks)}; ${fmt(result.creditsSpent)}`,
      '—',
      '—',
      '—',
      `0 duplicated, 0 credits: ${result.duplicated === 0 && result.failedChecks === 0 && result.creditsSpent === 0 ? '**met**' : '**missed**'}`,
    ],
  ];
}
