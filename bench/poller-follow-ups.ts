import { YOUNG_STEPS } from '../src/domain/poll-cadence.ts';
import { FOLLOW_UP_READS_PER_POLL } from '../src/domain/follow-up.ts';
import { POLL_IN_FLIGHT } from '../src/eis/index.ts';
import { createScheduledLoader } from '../src/roots/runtime.ts';
import { startSimulator } from '../simulator/server.ts';
import { createStore } from '../src/store/index.ts';
import { fmt, type Row } from './report.ts';
import { lambdaTimeLeft, manualClock, STACK } from './schedule.ts';
import { freshTable, quietLogger, scheduledEnv } from './services.ts';
import { startSlackStandIn } from './slack-stand-in.ts';

/**
 * Issue 41, item 5: stacked "Draft outreach" tasks. One member has 5 tasks of 40 people, another one
 * task of 1; the drafts take 1 minute at the service (200 ms a call). Passes as poll-tasks makes them
 * (`createScheduledLoader`'s jobs, the Lambda's remaining time), one every young step of the manual
 * clock, until every reply is in: the key's calls in flight, reads per task and per pass, where the
 * other member's read came, and drafts ready → reply.
 */
export const FOLLOW_UPS = { latencyMs: 200, tasks: 5, people: 40, draftsTakeMs: 60_000 };
const DRAFT_READS = '/external/personnel/outreach';
/** Far more passes than the drafts need (about a dozen): a pass count this high means replies never came. */
const MAX_PASSES = 200;

export interface FollowUpsResult {
  peakInFlight: number;
  firstPassReads: number;
  /** Reads per task of the 40-person tasks, over their life (max of the five). */
  readsPerTask: number;
  /** The most reads one 40-person task made in a pass that did not post it, and in the pass that did. */
  readsPerPass: { pending: number; posting: number };
  /** How many reads the pass made before the other member's one read. */
  othersReadAfter: number;
  passes: number;
  /** Drafts ready → reply, s (the five tasks). */
  lagSeconds: { min: number; max: number };
  duplicates: number;
  /** Warnings and errors the poller logged (a read it could not use is one). */
  problems: number;
}

export async function measureFollowUps(dynamoEndpoint: string): Promise<FollowUpsResult> {
  const t0 = Math.ceil(Date.now() / 60_000) * 60_000;
  const clock = manualClock(t0);
  const sim = await startSimulator({ now: clock.now, taskDurationMs: FOLLOW_UPS.draftsTakeMs });
  const apiKey = 'sk_bench_follow_ups';
  sim.addKey(apiKey, { balance: 1_000_000 });
  const slack = await startSlackStandIn(clock.now);
  const tableName = 'eventbot-bench-follow-ups';
  const client = await freshTable(dynamoEndpoint, tableName);
  const { logger, problems } = quietLogger();
  const env = scheduledEnv({ tableName, dynamoEndpoint, simUrl: sim.url, slackApiUrl: slack.apiUrl, apiKey });
  const load = createScheduledLoader(env, { logger, now: clock.date });
  const store = createStore({ client, tableName, now: clock.date });
  try {
    const events = new Set(sim.seed.events.map((event) => event.id));
    const people = sim.seed.personnel.filter((p) => events.has(p.eventId));
    const group = (i: number) => people.slice(i * FOLLOW_UPS.people, (i + 1) * FOLLOW_UPS.people);
    const other = people.slice(FOLLOW_UPS.tasks * FOLLOW_UPS.people).slice(0, 1);
    for (const person of [...people.slice(0, FOLLOW_UPS.tasks * FOLLOW_UPS.people), ...other])
      await fetch(`${sim.url}/external/personnel/generate-outreach-message`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ personnel_ids: [person.id], event_id: person.eventId, channels: ['email'] }),
      });
    const thread = (i: number) => `1700000000.${String(i).padStart(6, '0')}`;
    const create = (i: number, member: string, group: typeof people) =>
      store.unlockTasks.create({
        taskId: `outreach-bench-${i}`,
        kind: 'email',
        teamId: 'T0BENCH',
        channelId: `C0FOLLOW${i}`,
        threadTs: thread(i),
        requestedBy: member,
        personnelIds: group.map((p) => p.id),
        skipped: [],
        followUp: { kind: 'outreach', eventIds: Object.fromEntries(group.map((p) => [p.id, p.eventId])) },
      });
    for (let i = 0; i < FOLLOW_UPS.tasks; i++) await create(i, 'U0STACKER', group(i));
    await create(FOLLOW_UPS.tasks, 'U0OTHER', other);
    sim.setLatency(FOLLOW_UPS.latencyMs);

    const reads = () => sim.requests().filter((r) => r.path === DRAFT_READS);
    const readsOf = (ids: string[], from = 0) =>
      reads()
        .slice(from)
        .filter((r) => ids.includes(String(r.query.personnel_id))).length;
    const pass = async () =>
      (await load()).pollUnlockTasks({ remainingMs: lambdaTimeLeft(STACK.pollTimeoutMs) });
    const postedAll = () => slack.posts.size >= FOLLOW_UPS.tasks + 1;
    const isPosted = (i: number) => slack.posts.has(`C0FOLLOW${i}/${thread(i)}`);
    const perPass = { pending: 0, posting: 0 };
    /** A pass; notes each 40-person task's reads in it, as a pass that posted it or not. */
    const measuredPass = async () => {
      const before = reads().length;
      const wasPosted = Array.from({ length: FOLLOW_UPS.tasks }, (_, i) => isPosted(i));
      await pass();
      for (let i = 0; i < FOLLOW_UPS.tasks; i++) {
        if (wasPosted[i]) continue;
        const n = readsOf(
          group(i).map((p) => p.id),
          before,
        );
        const kind = isPosted(i) ? 'posting' : 'pending';
        perPass[kind] = Math.max(perPass[kind], n);
      }
    };
    await measuredPass();
    const first = reads();
    const othersRead = first.findIndex((r) => r.query.personnel_id === other[0]?.id);
    let passes = 1;
    while (!postedAll() && passes < MAX_PASSES) {
      clock.set(clock.now() + YOUNG_STEPS[0].everyMs);
      await measuredPass();
      passes += 1;
    }
    const readyAt = t0 + FOLLOW_UPS.draftsTakeMs;
    const lags = Array.from({ length: FOLLOW_UPS.tasks }, (_, i) => {
      const posted = slack.posts.get(`C0FOLLOW${i}/${thread(i)}`)?.[0] ?? Number.NaN;
      return (posted - readyAt) / 1000;
    });
    return {
      peakInFlight: sim.maxInFlight(apiKey),
      firstPassReads: first.length,
      readsPerTask: Math.max(
        ...Array.from({ length: FOLLOW_UPS.tasks }, (_, i) => readsOf(group(i).map((p) => p.id))),
      ),
      readsPerPass: perPass,
      othersReadAfter: othersRead,
      passes,
      lagSeconds: { min: Math.min(...lags), max: Math.max(...lags) },
      duplicates: [...slack.posts.values()].filter((times) => times.length > 1).length,
      problems: problems.length,
    };
  } finally {
    await Promise.all([slack.close(), sim.close()]);
    client.destroy();
  }
}

/** Before issue 41 (the finding): one pass made 200 reads (each task read all 40 people), 10 in flight on the key. */
export const BEFORE_ISSUE_41 = { firstPassReads: 200, peakInFlight: 10, readsPerPass: FOLLOW_UPS.people };

export function followUpRows(result: FollowUpsResult): Row[] {
  const { tasks, people, latencyMs } = FOLLOW_UPS;
  const { total, perMember, perTask } = POLL_IN_FLIGHT;
  const within = result.peakInFlight <= total;
  const firstPassMet = result.firstPassReads <= (tasks + 1) * FOLLOW_UP_READS_PER_POLL;
  const { pending, posting } = result.readsPerPass;
  const allPosted = !Number.isNaN(result.lagSeconds.max);
  const readsMet = pending <= FOLLOW_UP_READS_PER_POLL && posting <= people && allPosted;
  return [
    [
      `poller, ${fmt(tasks)} "Draft outreach" tasks of ${fmt(people)} people by one member and 1 by another, ${fmt(latencyMs)} ms per call: the key's calls in flight at most (the poller's share, \`POLL_IN_FLIGHT\`: ${fmt(total)} in all, ${fmt(perMember)} a member, ${fmt(perTask)} a task); reads in the first pass (baseline column: before issue 41)`,
      `${fmt(result.peakInFlight)}; ${fmt(result.firstPassReads)}`,
      `${fmt(BEFORE_ISSUE_41.peakInFlight)}; ${fmt(BEFORE_ISSUE_41.firstPassReads)}`,
      '—',
      '—',
      `≤ ${fmt(total)} in flight, ≤ ${fmt(FOLLOW_UP_READS_PER_POLL)} reads per task a pass: ${within && firstPassMet ? '**met**' : '**missed**'}`,
    ],
    [
      `… reads per ${fmt(people)}-person task: over its life (drafts ready after ${fmt(FOLLOW_UPS.draftsTakeMs / 1000)} s, a pass every 5 s); at most in a pass while some are pending; in the pass that posts`,
      `${fmt(result.readsPerTask)}; ${fmt(pending)}; ${fmt(posting)}`,
      `—; ${fmt(BEFORE_ISSUE_41.readsPerPass)}; ${fmt(BEFORE_ISSUE_41.readsPerPass)}`,
      '—',
      '—',
      `≤ ${fmt(FOLLOW_UP_READS_PER_POLL)} a pass while pending (\`FOLLOW_UP_READS_PER_POLL\`), ≤ ${fmt(people)} (everyone once) in the pass that posts, every reply posted: ${readsMet ? '**met**' : '**missed**'}`,
    ],
    [
      `… drafts ready → reply (min–max); passes; the other member's read came after N of the first pass's; threads with two replies; warnings logged`,
      `${fmt(result.lagSeconds.min)}–${fmt(result.lagSeconds.max)} s; ${fmt(result.passes)}; ${fmt(result.othersReadAfter)}; ${fmt(result.duplicates)}; ${fmt(result.problems)}`,
      '—',
      '—',
      '—',
      '— (no target)',
    ],
  ];
}
