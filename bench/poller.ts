import { MAX_CONCURRENT_POLLS, type PollSummary } from '../src/domain/unlock-polling.ts';
import { createScheduledLoader } from '../src/roots/runtime.ts';
import { type Simulator, startSimulator } from '../simulator/server.ts';
import { createStore } from '../src/store/index.ts';
import { fmt, fmtRatio, ratio, type Row } from './report.ts';
import { lambdaTimeLeft, type ManualClock, manualClock, STACK } from './schedule.ts';
import { freshTable, quietLogger, scheduledEnv } from './services.ts';
import { type SlackStandIn, startSlackStandIn } from './slack-stand-in.ts';
import { inParallel } from './stats.ts';
import { hourRows, POLL_LAG_TARGET, simulatedHour, type VirtualHourResult } from './poller-hour.ts';
import { channelOf, MINUTE, type PlannedTask, POLLER, range, threadOf } from './poller-plan.ts';
import { followUpRows, type FollowUpsResult, measureFollowUps } from './poller-follow-ups.ts';
import { POLL_IN_FLIGHT } from '../src/eis/index.ts';

/**
 * The unlock poller as `handlers/poll-tasks.ts` runs it (`createScheduledLoader`: the reconciler, then
 * `pollUnlockTasks` with the Lambda's remaining time), against DynamoDB Local, the service simulator at
 * 200 ms a request and the Slack stand-in (one post per channel per second), on a manual clock:
 * - backlog: 1,000 due tasks the service still reports running, one run: polls per second;
 * - burst: tasks that all finished before a run, one run: results posted per second;
 * - stacked outreach tasks (poller-follow-ups.ts): calls in flight, reads per task;
 * - a simulated hour (poller-hour.ts): tasks finishing at spread times, a run every minute:
 *   completion → post lag.
 * The ideal is the poller's concurrency over the service latency (5 ÷ 0.2 s = 25 tasks/s). Every part
 * reports the key's calls in flight at most, against the poller's share (`POLL_IN_FLIGHT`).
 */

interface World {
  clock: ManualClock;
  sim: Simulator;
  apiKey: string;
  slack: SlackStandIn;
  store: ReturnType<typeof createStore>;
  run(): Promise<{ summary: PollSummary; ms: number }>;
  problems: string[];
  close(): Promise<void>;
}

async function startWorld(dynamoEndpoint: string, name: string, startMs: number): Promise<World> {
  const clock = manualClock(startMs);
  // Tasks finish on the clock: each is submitted at the reading 1 ms before it is to finish.
  const sim = await startSimulator({ now: clock.now, taskDurationMs: 1 });
  const apiKey = `sk_bench_${name}`;
  sim.addKey(apiKey, { balance: 100_000_000 });
  const slack = await startSlackStandIn(clock.now);
  const tableName = `eventbot-bench-${name}`;
  const client = await freshTable(dynamoEndpoint, tableName);
  const { logger, problems } = quietLogger();
  const env = scheduledEnv({
    tableName,
    dynamoEndpoint,
    simUrl: sim.url,
    slackApiUrl: slack.apiUrl,
    apiKey: apiKey,
  });
  const load = createScheduledLoader(env, { logger, now: clock.date });
  // As handlers/poll-tasks.ts runs, with the stack's timeout as the Lambda's remaining time.
  const run = async () => {
    const jobs = await load();
    const started = performance.now();
    const remainingMs = lambdaTimeLeft(STACK.pollTimeoutMs);
    await jobs.reconcileConfirmations();
    const summary = await jobs.pollUnlockTasks({ remainingMs });
    return { summary, ms: performance.now() - started };
  };
  const store = createStore({ client, tableName, now: clock.date });
  const close = async () => {
    await Promise.all([slack.close(), sim.close()]);
    client.destroy();
  };
  return { clock, sim, apiKey, slack, store, run, problems, close };
}

/** Runs `work` for the items at each of their times, the clock set to it, earliest first. */
async function atTheirTimes<T>(
  clock: ManualClock,
  items: T[],
  timeOf: (item: T) => number,
  work: (item: T) => Promise<void>,
) {
  const times = [...new Set(items.map(timeOf))].sort((a, b) => a - b);
  for (const time of times) {
    clock.set(time);
    await inParallel(
      items.filter((item) => timeOf(item) === time),
      10,
      work,
    );
  }
}

/** Submits each task to the simulator (to finish at `finishesAt`), then stores it as the worker does. */
async function addTasks(world: World, plan: PlannedTask[]): Promise<void> {
  const people = world.sim.seed.personnel.filter((person) => person.linked);
  const taskIds = new Map<number, string>();
  world.sim.setLatency(0);
  await atTheirTimes(
    world.clock,
    plan,
    (task) => task.finishesAt - 1,
    async (task) => {
      const response = await fetch(`${world.sim.url}/external/contacts/unlock`, {
        method: 'POST',
        headers: { authorization: `Bearer ${world.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ personnel_ids: [people[task.index]?.id] }),
      });
      const answer = (await response.json()) as { task_id?: string };
      if (!answer.task_id) throw new Error(`the simulator made no task: ${JSON.stringify(answer)}`);
      taskIds.set(task.index, answer.task_id);
    },
  );
  await atTheirTimes(
    world.clock,
    plan,
    (task) => task.createdAt,
    async (task) => {
      await world.store.unlockTasks.create({
        taskId: taskIds.get(task.index) ?? '',
        kind: 'email',
        teamId: 'T0BENCH',
        channelId: channelOf(task.index),
        threadTs: threadOf(task.index),
        requestedBy: 'U0BENCH',
        personnelIds: [people[task.index]?.id ?? ''],
        skipped: [],
      });
    },
  );
  world.sim.setLatency(POLLER.latencyMs);
}

/** Threads that got more than one reply, and replies in all. */
function duplicatesOf(slack: SlackStandIn) {
  const counts = [...slack.posts.values()].map((times) => times.length);
  return { posted: counts.reduce((a, b) => a + b, 0), duplicates: counts.filter((n) => n > 1).length };
}

/** The poller's best: every slot busy with one service request at a time. */
export const IDEAL_PER_SECOND = MAX_CONCURRENT_POLLS / (POLLER.latencyMs / 1000);

export interface OneRun {
  tasks: number;
  /** Tasks polled (backlog) or results posted (burst) in the run. */
  done: number;
  seconds: number;
  perSecond: number;
  /** `perSecond` ÷ the ideal. */
  toIdeal: number;
  /** The run stopped starting polls because its Lambda time was running out. */
  outOfTime: boolean;
  /** The key's service calls in flight at once, at most (the simulator's count). */
  peakInFlight: number;
}

/** One scheduled run over `plan`, all due at `t0`; counts what `count` picks from its summary. */
async function oneRun(
  dynamoEndpoint: string,
  name: string,
  plan: (t0: number) => PlannedTask[],
  count: (summary: PollSummary) => number,
) {
  const t0 = Math.ceil(Date.now() / MINUTE) * MINUTE;
  const world = await startWorld(dynamoEndpoint, name, t0);
  try {
    const tasks = plan(t0);
    await addTasks(world, tasks);
    world.clock.set(t0);
    const { summary, ms } = await world.run();
    const done = count(summary);
    const run: OneRun = {
      tasks: tasks.length,
      done,
      seconds: ms / 1000,
      perSecond: done / (ms / 1000),
      toIdeal: done / (ms / 1000) / IDEAL_PER_SECOND,
      outOfTime: summary.outOfTime,
      peakInFlight: world.sim.maxInFlight(world.apiKey),
    };
    return {
      run,
      ...duplicatesOf(world.slack),
      rateLimited: world.slack.rateLimited(),
      problems: world.problems,
    };
  } finally {
    await world.close();
  }
}

/** Due tasks that the service still reports running: each poll is one service request and a reschedule. */
const backlogPlan = (t0: number) =>
  range(POLLER.backlog).map((index) => ({
    index,
    createdAt: t0 - 10 * MINUTE,
    finishesAt: t0 + 24 * 60 * MINUTE,
  }));

/** Due tasks that all finished a second before the run: each poll also marks, posts and updates the card. */
const burstPlan = (t0: number) =>
  range(POLLER.burst).map((index) => ({ index, createdAt: t0 - 5 * MINUTE, finishesAt: t0 - 1000 }));

export interface PollerResult {
  settings: typeof POLLER;
  idealPerSecond: number;
  backlog: OneRun;
  burst: OneRun;
  /** The simulated hour at each service latency (`POLLER.hourLatenciesMs`). */
  hours: VirtualHourResult[];
  /** Stacked outreach tasks: calls in flight, reads per task, the other member's turn. */
  followUps: FollowUpsResult;
  /** Over all three: replies posted, threads with more than one, posts Slack answered 429, problems logged. */
  posted: number;
  duplicates: number;
  rateLimited: number;
  problems: number;
  /** The first few warnings and errors the poller logged. */
  problemSamples: string[];
}

export async function measurePoller(
  dynamoEndpoint: string,
  log: (line: string) => void,
): Promise<PollerResult> {
  log(`  poller: backlog of ${POLLER.backlog} running tasks, one run…`);
  const backlog = await oneRun(dynamoEndpoint, 'poll-backlog', backlogPlan, (summary) => summary.polled);
  log(`  poller: ${POLLER.burst} tasks finished at once, one run…`);
  const burst = await oneRun(dynamoEndpoint, 'poll-burst', burstPlan, (summary) => summary.posted);
  log(`  poller: stacked outreach tasks, passes until every reply is in…`);
  const followUps = await measureFollowUps(dynamoEndpoint);
  const hours: VirtualHourResult[] = [];
  for (const latencyMs of POLLER.hourLatenciesMs) {
    log(`  poller: a simulated hour of ${POLLER.hourTasks} tasks at ${latencyMs} ms a call…`);
    hours.push(await simulatedHour(dynamoEndpoint, latencyMs, log));
  }
  const all = [backlog, burst];
  const problems = all.flatMap((part) => part.problems);
  return {
    settings: POLLER,
    idealPerSecond: IDEAL_PER_SECOND,
    backlog: backlog.run,
    burst: burst.run,
    hours,
    followUps,
    posted:
      all.reduce((sum, part) => sum + part.posted, 0) +
      hours.reduce((sum, h) => sum + h.tasks - h.unposted, 0),
    duplicates:
      all.reduce((sum, part) => sum + part.duplicates, 0) + hours.reduce((sum, h) => sum + h.duplicates, 0),
    rateLimited: all.reduce((sum, part) => sum + part.rateLimited, 0),
    problems: problems.length,
    problemSamples: problems.slice(0, 5),
  };
}

const perSecondRow = (label: string, run: OneRun, extra: string): Row => [
  label,
  `${fmt(run.perSecond, 1)}/s (${fmt(run.done)} in ${fmt(run.seconds, 1)} s${extra})`,
  `${fmt(IDEAL_PER_SECOND, 1)}/s`,
  '—',
  fmtRatio(ratio(run.perSecond, IDEAL_PER_SECOND)),
  '— (no target)',
];

/**
 * Issue 41's "done when" in one row: the key's calls in flight at most in each part, against the
 * poller's share; reads per task; and the hour's replies, still within the target.
 */
function boundsRow({ backlog, burst, followUps, hours }: PollerResult): Row {
  const peaks = [
    backlog.peakInFlight,
    burst.peakInFlight,
    followUps.peakInFlight,
    ...hours.map((h) => h.peakInFlight),
  ];
  const reads = hours.map((h) => `${fmt(h.pollsPerTask.mean, 1)} / ${fmt(h.pollsPerTask.max)}`).join(' and ');
  const lags = hours
    .map((h) => `${fmt(h.lagSeconds.upTo10Min.p50)} / ${fmt(h.lagSeconds.upTo10Min.p95)} s`)
    .join(' and ');
  const latencies = hours.map((h) => `${fmt(h.latencyMs)} ms`).join(' and ');
  const withinShare = peaks.every((peak) => peak <= POLL_IN_FLIGHT.total);
  const inTime = hours.every((h) => h.lagSeconds.upTo10Min.p95 <= POLL_LAG_TARGET.p95);
  return [
    `poller, polls bounded by calls (issue 41): the key's calls in flight at most in the backlog, burst, outreach and hour parts (${latencies}); reads per unlock task in the hour (mean / max); reads per 40-person outreach task over its life; completion → reply p50 / p95 in the hour, tasks of 10 s–10 min`,
    `${peaks.map((peak) => fmt(peak)).join(', ')}; ${reads}; ${fmt(followUps.readsPerTask)}; ${lags}`,
    '—',
    '—',
    '—',
    `≤ ${fmt(POLL_IN_FLIGHT.total)} in flight (\`POLL_IN_FLIGHT.total\`), p95 ≤ ${fmt(POLL_LAG_TARGET.p95)} s: ${withinShare && inTime ? '**met**' : '**missed**'}`,
  ];
}

export function pollerRows(result: PollerResult): Row[] {
  const { backlog, burst, hours } = result;
  const timeout = fmt(STACK.pollTimeoutMs / 1000);
  const stopped = backlog.outOfTime
    ? `; the run stopped starting polls with 20 s of its ${timeout} s left`
    : '';
  const unposted = hours.reduce((sum, hour) => sum + hour.unposted, 0);
  const all = `${fmt(result.posted)} replies over the four`;
  return [
    perSecondRow(
      `poller, ${fmt(backlog.tasks)} due tasks still running, 200 ms per service call, one pass: tasks polled per second (baseline column: the ideal, 5 at once ÷ 0.2 s)`,
      backlog,
      stopped,
    ),
    perSecondRow(
      `poller, ${fmt(burst.tasks)} tasks that finished before the run, one pass: results posted per second (baseline column: the ideal)`,
      burst,
      '',
    ),
    ...followUpRows(result.followUps),
    ...hours.flatMap(hourRows),
    boundsRow(result),
    [
      `poller: threads with more than one reply (${all}); posts Slack answered 429`,
      `${fmt(result.duplicates)}; ${fmt(result.rateLimited)}`,
      '—',
      '—',
      '—',
      `0 duplicates: ${result.duplicates === 0 && unposted === 0 ? '**met**' : `**missed** (${fmt(unposted)} never posted)`}`,
    ],
  ];
}
