import { type DigestRunSummary, nextDigestRun } from '../src/domain/digest.ts';
import { createScheduledLoader } from '../src/roots/runtime.ts';
import { startSimulator } from '../simulator/server.ts';
import { createStore } from '../src/store/index.ts';
import { fmt, fmtRatio, ratio, type Row } from './report.ts';
import { lambdaTimeLeft, manualClock, STACK } from './schedule.ts';
import { freshTable, quietLogger, scheduledEnv } from './services.ts';
import { startSlackStandIn } from './slack-stand-in.ts';
import { type Spread, spreadOf } from './stats.ts';

/**
 * The digest job as `handlers/digest.ts` runs it (`createScheduledLoader().runDigests` with the
 * Lambda's remaining time), every 5 minutes of a manual clock, over `DIGEST.channels` subscriptions
 * all due at the same minute (one local time in five zones), against DynamoDB Local, the simulator
 * and the Slack stand-in, which answers 429 to a second post in a channel within one second.
 */
export const DIGEST = {
  channels: 500,
  /** The service answers at once: what is measured is the fan-out (pacing, runs, schedule). */
  latencyMs: 0,
};
/** Issue 12, item 3: a digest is posted within 5 minutes of its local time. */
export const DIGEST_TARGET_MS = 5 * 60_000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Asia/Kolkata'];
const KEYWORDS = [undefined, 'fintech', 'health', 'retail', 'energy'];

/** The local time of day at `at` in `timeZone`, `HH:MM`. */
function localTime(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

/** One subscription per channel, as `/events digest on` stores it, each due at `dueAt`. */
async function subscribe(store: ReturnType<typeof createStore>, dueAt: number) {
  for (let i = 0; i < DIGEST.channels; i++) {
    const timeZone = ZONES[i % ZONES.length] ?? 'UTC';
    const time = localTime(dueAt, timeZone);
    const nextRunAt = nextDigestRun({ time, timeZone }, new Date(dueAt - 60_000));
    if (nextRunAt.getTime() !== dueAt) throw new Error(`${time} ${timeZone} is not due at the same minute`);
    const keywords = KEYWORDS[i % KEYWORDS.length];
    await store.digestSubscriptions.put({
      teamId: 'T0BENCH',
      channelId: `C0DIGEST${i}`,
      time,
      timeZone,
      filters: keywords ? { keywords } : {},
      createdBy: 'U0BENCH',
      nextRunAt,
    });
  }
}

export interface DigestResult {
  settings: typeof DIGEST;
  runs: number;
  /** Each run's real working time (s). */
  runSeconds: number[];
  posted: number;
  /** Digests the job gave up on (its `failed`), and channels that got more than one. */
  failed: number;
  duplicates: number;
  /** Posts the stand-in answered 429 (each retried by the job's pacer when it had time). */
  rateLimited: number;
  /** Due (local time) → posted, on the clock (s). */
  lateSeconds: Spread;
  withinTarget: number;
  /** The last digest's lateness ÷ the 5-minute target; the share posted within it. */
  lastToTarget: number;
  withinTargetShare: number;
  problems: number;
}

async function startWorld(dynamoEndpoint: string, dueAt: number) {
  const clock = manualClock(dueAt);
  const sim = await startSimulator({ now: clock.now, latencyMs: DIGEST.latencyMs });
  const slack = await startSlackStandIn(clock.now);
  const tableName = 'eventbot-bench-digest';
  const client = await freshTable(dynamoEndpoint, tableName);
  const { logger, problems } = quietLogger();
  const env = scheduledEnv({ tableName, dynamoEndpoint, simUrl: sim.url, slackApiUrl: slack.apiUrl });
  const load = createScheduledLoader(env, { logger, now: clock.date });
  // As handlers/digest.ts runs, with the stack's timeout as the Lambda's remaining time.
  const run = async (): Promise<DigestRunSummary> =>
    (await load()).runDigests({ remainingMs: lambdaTimeLeft(STACK.digestTimeoutMs) });
  const store = createStore({ client, tableName, now: clock.date });
  const close = async () => {
    await Promise.all([slack.close(), sim.close()]);
    client.destroy();
  };
  return { clock, slack, store, run, problems, close };
}

export async function measureDigestFanOut(
  dynamoEndpoint: string,
  log: (line: string) => void,
): Promise<DigestResult> {
  const dueAt = Math.ceil(Date.now() / STACK.digestEveryMs) * STACK.digestEveryMs;
  const world = await startWorld(dynamoEndpoint, dueAt);
  try {
    await subscribe(world.store, dueAt);
    const runSeconds: number[] = [];
    let failed = 0;
    // Every 5 minutes from the due minute, until every channel has its digest (at most an hour).
    for (let run = 0; run < 12 && world.slack.posts.size < DIGEST.channels; run++) {
      world.clock.advanceTo(dueAt + run * STACK.digestEveryMs);
      const started = performance.now();
      const summary = await world.run();
      runSeconds.push((performance.now() - started) / 1000);
      failed += summary.failed;
      log(`  digest: run ${run + 1} posted ${summary.posted} (${summary.due} due)`);
    }
    const posts = [...world.slack.posts.values()];
    const late = posts.map((times) => ((times[0] ?? Number.NaN) - dueAt) / 1000);
    const withinTarget = late.filter((seconds) => seconds * 1000 <= DIGEST_TARGET_MS).length;
    return {
      settings: DIGEST,
      runs: runSeconds.length,
      runSeconds,
      posted: posts.reduce((sum, times) => sum + times.length, 0),
      failed,
      duplicates: posts.filter((times) => times.length > 1).length,
      rateLimited: world.slack.rateLimited(),
      lateSeconds: spreadOf(late),
      withinTarget,
      lastToTarget: Math.max(...late) / (DIGEST_TARGET_MS / 1000),
      withinTargetShare: withinTarget / DIGEST.channels,
      problems: world.problems.length,
    };
  } finally {
    await world.close();
  }
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)} min ${fmt(seconds % 60)} s`;

export function digestRows(result: DigestResult): Row[] {
  const n = fmt(result.settings.channels);
  const last = result.lateSeconds.max;
  const target = DIGEST_TARGET_MS / 1000;
  const lastVerdict =
    last <= target
      ? `≤ 5 min: **met** (${fmt(target - last)} s under)`
      : `≤ 5 min: **missed** by ${minutes(last - target)}`;
  const failures = result.failed + (result.settings.channels - result.posted);
  return [
    [
      `digest fan-out, ${n} channels due at the same minute, Slack at 1 post/s per channel: due → last digest posted (${fmt(result.runs)} runs, 5 min apart)`,
      minutes(last),
      '—',
      '—',
      `${fmtRatio(ratio(last, target))} the target`,
      lastVerdict,
    ],
    [
      `… digests posted within 5 min of their local time; p50 / p95 lateness`,
      `${fmt(result.withinTarget)} of ${n}; ${fmt(result.lateSeconds.p50)} / ${fmt(result.lateSeconds.p95)} s`,
      '—',
      '—',
      fmtRatio(ratio(result.withinTarget, result.settings.channels)),
      `all ${n}: ${result.withinTarget === result.settings.channels ? '**met**' : `**missed** (${fmt(result.settings.channels - result.withinTarget)} late)`}`,
    ],
    [
      `… rate-limit failures (digests not posted); posts Slack answered 429; channels with two digests`,
      `${fmt(failures)}; ${fmt(result.rateLimited)}; ${fmt(result.duplicates)}`,
      '—',
      '—',
      '—',
      `0 failures: ${failures === 0 && result.duplicates === 0 ? '**met**' : '**missed**'}`,
    ],
  ];
}
