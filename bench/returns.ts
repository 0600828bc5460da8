import { slashCommandBody } from '../local/fake-slack/payloads.ts';
import { signedHeaders } from '../local/fake-slack/sign.ts';
import { newOutcome } from '../src/domain/outcomes.ts';
import { addShow, PLAN_LIMITS } from '../src/domain/plan/index.ts';
import { LEAD_GRADES, OUTCOME_KINDS } from '../src/domain/ports/records.ts';
import { SIGNING_SECRET, TEAM, USER, type World, startWorld } from './answers.ts';
import { fmt, fmtRatio, ratio, type Row } from './report.ts';
import { inParallel, type Spread, spreadOf } from './stats.ts';

/**
 * Issue 43's standard: `/events return <year>` over 5,000 entries and 200 shows answers in ≤ 1 s p95,
 * measured beside `/events plan` on the same channel in the same run. One channel is seeded straight
 * through the store: its plan full of the year's shows, the other shows known only by their entries.
 * Both commands go through the real Slack handler and the inline worker; the time is from the signed
 * POST to the answer in fake Slack. The two are interleaved, run by run, so load hits both alike.
 */
export const RETURNS = {
  shows: 200,
  entries: 5_000,
  runs: Number(process.env.BENCH_RETURN_RUNS ?? 20) || 20,
  targetP95Ms: 1_000,
};

const GIVE_UP_MS = 60_000;
const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface SeededShow {
  eventId: string;
  name: string;
  dateStart: string;
  dateEnd: string;
}

/** The year most of the simulator's shows start in, and the shows: the simulator's first, then made-up ones. */
function showsOfAYear(world: World): { year: string; shows: SeededShow[] } {
  const byYear = new Map<string, number>();
  for (const e of world.sim.events)
    byYear.set(e.dateStart.slice(0, 4), (byYear.get(e.dateStart.slice(0, 4)) ?? 0) + 1);
  const year = [...byYear].sort((a, b) => b[1] - a[1])[0]?.[0] ?? String(new Date().getUTCFullYear());
  const real = world.sim.events
    .filter((e) => e.dateStart.startsWith(year))
    .slice(0, PLAN_LIMITS.shows)
    .map(({ eventId, name, dateStart, dateEnd }) => ({ eventId, name, dateStart, dateEnd }));
  const made = Array.from({ length: RETURNS.shows - real.length }, (_, i) => {
    const start = Date.parse(`${year}-01-01T00:00:00Z`) + (i % 360) * DAY_MS;
    return {
      eventId: String(9_000_000 + i),
      name: `Bench show ${i}`,
      dateStart: day(start),
      dateEnd: day(start + 2 * DAY_MS),
    };
  });
  return { year, shows: [...real, ...made] };
}

async function seed(world: World, channel: string, shows: SeededShow[]) {
  // One add at a time, as `plan add` stores them.
  for (const show of shows.slice(0, PLAN_LIMITS.shows))
    await world.store.plans.update(TEAM, channel, (plan) =>
      addShow(plan, { ...show, city: null, addedBy: USER, addedAt: new Date().toISOString() }),
    );
  const entries = Array.from({ length: RETURNS.entries }, (_, i) => {
    const show = shows[i % shows.length] as SeededShow;
    const kind = OUTCOME_KINDS[i % OUTCOME_KINDS.length] ?? 'lead';
    const at = new Date(Date.parse(`${show.dateStart}T12:00:00Z`) + ((i % 60) - 10) * DAY_MS);
    return newOutcome({
      id: `bench-${i}`,
      teamId: TEAM,
      channelId: channel,
      show,
      kind,
      ...(kind === 'lead' ? { grade: LEAD_GRADES[i % LEAD_GRADES.length] } : {}),
      ...(kind === 'opportunity' || kind === 'won' ? { hundredths: 100_000 + (i % 97) * 1_000 } : {}),
      account: `Account ${i % 700}`,
      loggedBy: USER,
      at,
    });
  });
  await inParallel(entries, 16, async (entry) => {
    await world.store.outcomes.add(entry);
  });
}

/** ms from the POST to the answer: the ack when it carries one, else the channel's next message. */
async function answerTime(world: World, channel: string, text: string, answered: (text: string) => boolean) {
  const responseUrl = world.slack.responseUrl(channel, USER);
  const body = slashCommandBody({ teamId: TEAM, userId: USER, channelId: channel }, text, responseUrl);
  const before = world.slack.messages(channel).length;
  const arrived = new Promise<number>((resolve, reject) => {
    const check = () => {
      const fresh = world.slack.messages(channel).slice(before);
      if (!fresh.some((m) => answered(`${m.text}\n${JSON.stringify(m.blocks)}`))) return;
      stop();
      clearTimeout(timer);
      resolve(performance.now());
    };
    const timer = setTimeout(() => {
      stop();
      const seen = world.slack
        .messages(channel)
        .slice(before)
        .map((m) => m.text.slice(0, 200));
      reject(
        new Error(
          `no answer to \`${text}\` in ${channel} after ${GIVE_UP_MS} ms; it shows ${JSON.stringify(seen)}; ${JSON.stringify(world.problems.slice(0, 3))}`,
        ),
      );
    }, GIVE_UP_MS);
    const stop = world.slack.onChange(check);
  });
  const started = performance.now();
  const response = await fetch(`${world.url}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SIGNING_SECRET, body),
    body,
  });
  const ack = await response.text();
  world.slack.recordAck(responseUrl, ack);
  if (answered(ack)) {
    arrived.catch(() => undefined);
    return performance.now() - started;
  }
  return (await arrived) - started;
}

export interface ReturnsResult {
  settings: typeof RETURNS;
  year: string;
  planShows: number;
  returnMs: Spread;
  planMs: Spread;
  problems: number;
}

export async function measureReturns(
  dynamoEndpoint: string,
  log: (line: string) => void,
): Promise<ReturnsResult> {
  const world = await startWorld(dynamoEndpoint);
  try {
    const channel = world.channels[0] ?? 'C0ANS0';
    // A member of the workspace: an unknown user reads as a guest from another organisation.
    world.slack.addUser(USER, { name: 'bench', tz: 'UTC', teamId: TEAM });
    const { year, shows } = showsOfAYear(world);
    log(`  seeding ${fmt(RETURNS.entries)} entries over ${fmt(shows.length)} shows of ${year}…`);
    await seed(world, channel, shows);
    const returned = (text: string) =>
      text.includes(`Return: ${year}`) && !text.includes('No show of the plan and no logged entry');
    // The plan card lists its shows; any of them names it.
    const planned = (text: string) => !text.includes('Return:') && text.includes(shows[0]?.eventId ?? '');
    const returns: number[] = [];
    const plans: number[] = [];
    // The first of each warms the handler and the worker up; it is not counted.
    for (let run = 0; run <= RETURNS.runs; run++) {
      const r = await answerTime(world, channel, `return ${year}`, returned);
      const p = await answerTime(world, channel, 'plan', planned);
      if (run === 0) continue;
      returns.push(r);
      plans.push(p);
    }
    return {
      settings: RETURNS,
      year,
      planShows: Math.min(shows.length, PLAN_LIMITS.shows),
      returnMs: spreadOf(returns),
      planMs: spreadOf(plans),
      problems: world.problems.length,
    };
  } finally {
    await world.close();
  }
}

const cell = (s: Spread) => `${fmt(s.p50)} / ${fmt(s.p95)} / ${fmt(s.max)} ms`;

/** `return <year>` (eventbot column) beside `plan` on the same channel (baseline column): p50 / p95 / max. */
export function returnRows(r: ReturnsResult): Row[] {
  const met = r.returnMs.p95 <= r.settings.targetP95Ms;
  return [
    [
      `answer p50 / p95 / max, \`/events return ${r.year}\` over ${fmt(r.settings.entries)} entries and ${fmt(r.settings.shows)} shows (${fmt(r.returnMs.count)} runs), beside \`/events plan\` of the same channel (${fmt(r.planShows)} shows; baseline column)`,
      cell(r.returnMs),
      cell(r.planMs),
      '—',
      `${fmtRatio(ratio(r.returnMs.p95, r.planMs.p95))} (p95; p50 ${fmtRatio(ratio(r.returnMs.p50, r.planMs.p50))})`,
      `p95 ≤ ${fmt(r.settings.targetP95Ms)} ms: **${met ? 'met' : 'missed'}**${r.problems > 0 ? ` (${fmt(r.problems)} warnings logged)` : ''}`,
    ],
  ];
}
