import type { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { accountKey } from '../src/domain/watch/index.ts';
import { createScheduledLoader } from '../src/roots/runtime.ts';
import { consumeWatchChecks } from '../src/scheduling/watch-consumer.ts';
import type { WatchCheckRequest } from '../src/scheduling/watch-dispatch.ts';
import { createWatchRun } from '../src/roots/watch-runtime.ts';
import { startSimulator } from '../simulator/server.ts';
import { createStore } from '../src/store/index.ts';
import { WATCH_CHECK_BATCH_SIZE } from '../infra/constructs/watch-queue.ts';
import { MAX_IN_FLIGHT_PER_KEY, WATCH_IN_FLIGHT_PER_KEY } from '../src/eis/limiter.ts';
import { laneOf } from '../src/scheduling/watch-queue.ts';
import { fmt, fmtRatio, ratio, type Row } from './report.ts';
import { manualClock } from './schedule.ts';
import { freshTable, quietLogger, scheduledEnv } from './services.ts';
import { startSlackStandIn } from './slack-stand-in.ts';

/**
 * Account watch at scale, as the stack runs it: the hourly run (`createWatchRun`, queue mode, its
 * messages kept by a stand-in FIFO queue) and the queue's consumer (`consumeWatchChecks` over the
 * engine's `checkWatchedChannel`, one message an invocation; each of a workspace's lanes, its FIFO
 * message groups, delivered one message at a time and the lanes at once, a slice's continuation sent to
 * the back of its lane), against DynamoDB Local, the simulator and the Slack stand-in, budget 0.
 * `WATCH.channels` channels of `WATCH.accountsPerChannel` accounts: most are companies the service
 * knows, `WATCH.unknownPerChannel` of each channel's are names it has never seen.
 *
 * Two passes. Counting (the simulator at 0 ms): the service calls the simulator received per account
 * on the first day (every account looked up) and on a later day, alerts, alerts posted again by
 * re-delivered messages, credits. Timing (the simulator at `WATCH.latencyMs`): the whole first day of
 * every channel, wall time, and the most calls the key had in flight at once.
 */
export const WATCH = {
  channels: Number(process.env.BENCH_WATCH_CHANNELS ?? 50) || 50,
  accountsPerChannel: 200,
  unknownPerChannel: 20,
  latencyMs: 200,
};
const TEAM = 'T0BENCH';
const DAY = 24 * 60 * 60_000;

/** A FIFO queue as the consumer sees it: each lane's message bodies in the order sent. */
function standInQueue() {
  const lanes = new Map<string, string[]>();
  const push = (group: string, body: string) => {
    const lane = lanes.get(group) ?? [];
    lane.push(body);
    lanes.set(group, lane);
  };
  const sqs = {
    send: (command: SendMessageBatchCommand) => {
      for (const entry of command.input.Entries ?? [])
        push(entry.MessageGroupId ?? '', entry.MessageBody ?? '');
      return Promise.resolve({ Successful: [], Failed: [] });
    },
  };
  /** A slice's continuation, to the back of its lane (as the consumer's sender does it). */
  const handOn = (requests: WatchCheckRequest[]) => {
    for (const request of requests) push(laneOf(request), JSON.stringify(request));
    return Promise.resolve({ sent: requests.length, failed: 0 });
  };
  return { lanes, handOn, sqs: sqs as never };
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

/** One hourly run, then its messages consumed, each lane in order and the lanes at once; the calls and the time. */
async function day(world: World, twice = false) {
  const queue = standInQueue();
  const run = await createWatchRun(world.loader, world.env, { sqs: queue.sqs, now: world.clock.date })();
  const jobs = await world.loader();
  const requestsBefore = world.sim.requests().length;
  let appeared = 0;
  let failed = 0;
  let slices = 0;
  const started = performance.now();
  const deps = {
    check: async (request: WatchCheckRequest) => {
      const summary = await jobs.checkWatchedChannel(request);
      appeared += summary.appeared;
      return summary;
    },
    handOn: queue.handOn,
    logger: jobs.logger,
  };
  const drain = async (bodies: string[]) => {
    for (
      let taken = bodies.splice(0, WATCH_CHECK_BATCH_SIZE);
      taken.length > 0;
      taken = bodies.splice(0, WATCH_CHECK_BATCH_SIZE)
    ) {
      const batch = { Records: taken.map((body) => ({ messageId: `m${slices++}`, body })) };
      // `twice`: the message is delivered again while its first delivery still runs (a visibility
      // timeout ran out), so two consumers check the same slice at once.
      const answers = await Promise.all(
        (twice ? [batch, batch] : [batch]).map((event) => consumeWatchChecks(event, deps)),
      );
      failed += answers.reduce((sum, answer) => sum + answer.batchItemFailures.length, 0);
    }
  };
  await Promise.all([...queue.lanes.values()].map(drain));
  return {
    sent: run.sent,
    calls: world.sim.requests().length - requestsBefore,
    appeared,
    failed,
    slices,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Today's figures before issue 35 (docs/performance.md, 2026-11-26): the first day, one channel after another. */
export const BEFORE = {
  firstDayCallsPerAccount: 9.6,
  laterDayCallsPerAccount: 1.01,
  firstDaySeconds: 88 * 60 + 1,
};

/** Issue 35's targets for the first day: calls per account, and minutes for 10,000 accounts at 200 ms. */
export const TARGET = { firstDayCallsPerAccount: 3, laterDayCallsPerAccount: 1, firstDaySeconds: 20 * 60 };

export interface WatchResult {
  settings: typeof WATCH;
  accounts: number;
  /** Service calls per account, as the simulator received them: the first day (every account looked up), a later day. */
  firstDayCallsPerAccount: number;
  laterDayCallsPerAccount: number;
  /** Seconds to check every channel's first day at `latencyMs`, the lanes at once. */
  firstDaySeconds: number;
  /** The most calls the workspace's key had in flight at once during the timed first day. */
  peakInFlight: number;
  alerts: number;
  /** Checks that failed (returned to the queue). */
  failedChecks: number;
  /** Alerts posted again by every message delivered a second time. */
  duplicated: number;
  creditsSpent: number;
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
      `  watch: first day, ${first.sent} channels in ${first.slices} slices, ${first.calls} service calls, ${first.appeared} appeared`,
    );
    appearLater(world);
    world.clock.advanceTo(world.clock.now() + DAY + 60_000);
    const later = await day(world, true);
    log(
      `  watch: a day later, ${later.sent} channels, ${later.calls} service calls, ${later.appeared} appeared`,
    );
    const { alerts, duplicated } = alertsIn(world);
    return {
      first,
      later,
      alerts,
      duplicated,
      failed: first.failed + later.failed,
      spent: before - world.balance(),
      problems: world.problems.length,
    };
  } finally {
    await world.close();
  }
}

async function timing(dynamoEndpoint: string, log: (line: string) => void) {
  const world = await startWorld(dynamoEndpoint, 'time', WATCH.latencyMs, WATCH.channels);
  try {
    const first = await day(world);
    const peakInFlight = world.sim.maxInFlight(world.env.EIS_API_KEY);
    log(
      `  watch: first day at ${WATCH.latencyMs} ms a call: ${minutes(first.seconds)} for ${first.calls} calls, at most ${peakInFlight} at once`,
    );
    return { first, peakInFlight, problems: world.problems.length };
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
    firstDaySeconds: timed.first.seconds,
    peakInFlight: timed.peakInFlight,
    alerts: counted.alerts,
    failedChecks: counted.failed + timed.first.failed,
    duplicated: counted.duplicated,
    creditsSpent: counted.spent,
    problems: counted.problems + timed.problems,
  };
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)} min ${fmt(seconds % 60)} s`;
const met = (ok: boolean) => (ok ? '**met**' : '**missed**');

export function watchRows(result: WatchResult): Row[] {
  const n = `${fmt(result.accounts)} accounts over ${fmt(result.settings.channels)} channels`;
  const { firstDayCallsPerAccount: first, laterDayCallsPerAccount: later } = result;
  return [
    [
      `watch, ${n}: service calls per account (counted at the simulator), first day; a later day (baseline column: before issue 35, 2026-11-26)`,
      `${fmt(first, 2)}; ${fmt(later, 2)}`,
      `${fmt(BEFORE.firstDayCallsPerAccount, 1)}; ${fmt(BEFORE.laterDayCallsPerAccount, 2)}`,
      '—',
      fmtRatio(ratio(first, BEFORE.firstDayCallsPerAccount)),
      `≤ ${TARGET.firstDayCallsPerAccount}; ≤ ${TARGET.laterDayCallsPerAccount}.0: ${met(first <= TARGET.firstDayCallsPerAccount && later <= TARGET.laterDayCallsPerAccount)}`,
    ],
    [
      `… first day, time to check all ${n} at ${fmt(result.settings.latencyMs)} ms a call, measured whole (the workspace's lanes at once); baseline: one workspace's channels one after another`,
      minutes(result.firstDaySeconds),
      minutes(BEFORE.firstDaySeconds),
      '—',
      fmtRatio(ratio(result.firstDaySeconds, BEFORE.firstDaySeconds)),
      `≤ 20 min: ${met(result.firstDaySeconds <= TARGET.firstDaySeconds)}`,
    ],
    [
      `… the key's calls in flight at once, at most (the watch's share of the service's ${MAX_IN_FLIGHT_PER_KEY} per key)`,
      fmt(result.peakInFlight),
      '—',
      '—',
      '—',
      `≤ ${WATCH_IN_FLIGHT_PER_KEY}: ${met(result.peakInFlight <= WATCH_IN_FLIGHT_PER_KEY)}`,
    ],
    [
      `… alerts posted; alerts posted again with every message delivered twice at once; checks failed; credits spent with budget 0`,
      `${fmt(result.alerts)}; ${fmt(result.duplicated)}; ${fmt(result.failedChecks)}; ${fmt(result.creditsSpent)}`,
      '—',
      '—',
      '—',
      `0 duplicated, 0 credits: ${met(result.duplicated === 0 && result.failedChecks === 0 && result.creditsSpent === 0)}`,
    ],
  ];
}
