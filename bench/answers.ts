import { slashCommandBody } from '../local/fake-slack/payloads.ts';
import { signedHeaders } from '../local/fake-slack/sign.ts';
import { type FakeSlack, type SlackMessage, startFakeSlack } from '../local/fake-slack/fake-slack.ts';
import { serveLambda } from '../local/lambda-http.ts';
import { startSimulator } from '../simulator/server.ts';
import { createSlackHandlerLoader } from '../src/roots/slack-runtime.ts';
import { inlineWorker } from '../src/roots/worker-runtime.ts';
import { isPastShow } from '../src/domain/past-show.ts';
import { addShow } from '../src/domain/plan/index.ts';
import { escapeMrkdwn } from '../src/slack/views/mrkdwn.ts';
import { createStore } from '../src/store/index.ts';
import { fmt, type Row } from './report.ts';
import { freshTable, quietLogger } from './services.ts';
import { type Spread, spreadOf } from './stats.ts';

/**
 * Issue 35, item 3: what a user waits for after typing a command, from the signed POST to the answer
 * they read (the command's HTTP ack when the answer is in it, else the worker's message in fake Slack),
 * through the real Slack handler and the worker run inline (as `npm run dev` and the tests run them),
 * against DynamoDB Local and the simulator at `LATENCY_MS` per service call. Each run is in a channel
 * of its own and names a show of its own, so no run finds another's plan, card or cached read.
 */
/** `BENCH_ANSWER_CASE=plan-add`: that case alone, while developing. */
const ONLY_CASE = process.env.BENCH_ANSWER_CASE;

export const ANSWERS = {
  runs: Number(process.env.BENCH_ANSWER_RUNS ?? 20) || 20,
  latencyMs: 200,
  /** The target for a word that needs the service: one round trip + this. */
  overRoundTripMs: 300,
};

/** The figures, measured on the local page before (issue 35, "Why"). */
const TODAY_MS: Partial<Record<CaseName, number>> = { usage: 2100, already: 3600, unlock: 2800 };

export const SIGNING_SECRET = 'bench-answers-signing-secret';
export const TEAM = 'T0BENCH';
export const USER = 'U0BENCH';

type CaseName = 'usage' | 'unknown' | 'already' | 'search' | 'compare' | 'plan-add' | 'unlock';

interface Case {
  name: CaseName;
  what: string;
  /** The command's words in this run (`show` and `other` are the run's own shows). */
  text: (show: string, other: string, run: number) => string;
  /**
   * The answer the user reads, found in the ack's body or a message of the run's channel (its
   * fallback text, then its blocks as JSON); `name` is the name of the run's show.
   */
  answered: (text: string, name: string) => boolean;
  /** Needs the service: its target is a round trip + 300 ms; else it is answered in the ack. */
  service: boolean;
}

const SEARCH_WORDS = ['fintech', 'robotics', 'medical', 'food', 'energy', 'logistics', 'packaging'];

const CASES: readonly Case[] = [
  {
    name: 'usage',
    what: '`/events show` without an id (usage error)',
    text: () => 'show',
    answered: (text) => text.includes('The event id is missing'),
    service: false,
  },
  {
    name: 'unknown',
    what: '`/events shwo 26855` (not a command)',
    text: (show) => `shwo ${show}`,
    answered: (text) => text.includes('is not an /events command'),
    service: false,
  },
  {
    name: 'already',
    what: '`/events plan add <id>` of a show already on the plan',
    text: (show) => `plan add ${show}`,
    answered: (text) => text.includes('already on this channel'),
    service: false,
  },
  {
    name: 'search',
    what: '`/events search <words>` (list card)',
    text: (_show, _other, run) => `search ${SEARCH_WORDS[run % SEARCH_WORDS.length] ?? 'fintech'}`,
    answered: (text) => text.startsWith('Events'),
    service: true,
  },
  {
    name: 'compare',
    what: '`/events compare <id> <id>` (comparison card)',
    text: (show, other) => `compare ${show} ${other}`,
    answered: (text) => text.startsWith('Compare:'),
    service: true,
  },
  {
    name: 'plan-add',
    what: '`/events plan add <id>` of a new show to a plan with one show and its canvas (plan card)',
    text: (show) => `plan add ${show}`,
    answered: (text, name) => text.includes(`Added *${name}*`),
    service: true,
  },
  {
    name: 'unlock',
    what: '`/events unlock <id>` (confirmation card with its buttons)',
    text: (show) => `unlock ${show}`,
    answered: (text) => text.includes('confirm.yes'),
    service: true,
  },
];

const visible = (message: SlackMessage) => `${message.text}\n${JSON.stringify(message.blocks)}`;

/** How long a run waits for its answer before the bench says it never came. */
const GIVE_UP_MS = 60_000;

/** Resolves with the time when a message of `channel` reads as the answer. */
function answerIn(slack: FakeSlack, channel: string, answered: (text: string) => boolean) {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      const seen = slack.messages(channel).map((message) => message.text);
      reject(new Error(`no answer in ${channel} after ${GIVE_UP_MS} ms; it shows ${JSON.stringify(seen)}`));
    }, GIVE_UP_MS);
    const check = () => {
      if (!slack.messages(channel).some((message) => answered(visible(message)))) return;
      stop();
      clearTimeout(timer);
      resolve(performance.now());
    };
    const stop = slack.onChange(check);
    check();
  });
}

export async function startWorld(dynamoEndpoint: string) {
  const sim = await startSimulator();
  const apiKey = 'sk_test_bench_answers';
  sim.addKey(apiKey, { balance: 1_000_000 });
  const channels = Array.from({ length: CASES.length * (ANSWERS.runs + 1) }, (_, i) => `C0ANS${i}`);
  const slack = await startFakeSlack({ channels });
  const tableName = 'eventbot-bench-answers';
  const client = await freshTable(dynamoEndpoint, tableName);
  const { logger, problems } = quietLogger();
  const env = {
    TABLE_NAME: tableName,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    EIS_BASE_URL: sim.url,
    EIS_API_KEY: apiKey,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_BOT_TOKEN: 'xoxb-bench-not-a-token',
    SLACK_API_URL: slack.apiUrl,
    SLACK_TEAM_ID: TEAM,
    SLACK_BOT_USER_ID: 'U0BOT',
    WORKER_MODE: 'inline',
  };
  const load = createSlackHandlerLoader(env, {
    logger,
    inlineWorker: inlineWorker(env, { logger, earlyPolls: { count: 0, everyMs: 0 } }),
  });
  const http = await serveLambda(async (event, context) => (await load()).handler(event, context));
  const store = createStore({ client, tableName });
  const close = async () => {
    await (await load()).dispatch.idle?.();
    await Promise.all([http.close(), slack.close(), sim.close()]);
    client.destroy();
  };
  return { sim, slack, store, url: http.url, problems, channels, close };
}

export type World = Awaited<ReturnType<typeof startWorld>>;

/** One command in its own channel: ms from the POST to the answer, and whether the ack carried it. */
async function answerTime(
  world: World,
  run: { text: string; channel: string; answered: (text: string) => boolean },
) {
  const responseUrl = world.slack.responseUrl(run.channel, USER);
  const body = slashCommandBody(
    { teamId: TEAM, userId: USER, channelId: run.channel },
    run.text,
    responseUrl,
  );
  const inChannel = answerIn(world.slack, run.channel, run.answered);
  const started = performance.now();
  const response = await fetch(`${world.url}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SIGNING_SECRET, body),
    body,
  });
  const ack = await response.text();
  const ackedAt = performance.now();
  world.slack.recordAck(responseUrl, ack);
  if (run.answered(ack)) {
    inChannel.catch(() => undefined); // the answer was the ack
    return { ms: ackedAt - started, inAck: true };
  }
  return { ms: (await inChannel) - started, inAck: false };
}

export interface AnswerCase {
  name: CaseName;
  what: string;
  ms: Spread;
  /** Runs whose answer was in the command's ack. */
  inAck: number;
  service: boolean;
  todayMs?: number;
}

export interface AnswersResult {
  settings: typeof ANSWERS;
  cases: AnswerCase[];
  /** Warnings and errors the bot logged. */
  problems: number;
}

export async function measureAnswers(
  dynamoEndpoint: string,
  log: (line: string) => void,
): Promise<AnswersResult> {
  const world = await startWorld(dynamoEndpoint);
  // Shows still ahead: a plan refuses one that has ended.
  const shows = world.sim.events
    .filter((event) => !isPastShow(event, world.sim.today))
    .map((event) => event.eventId);
  // As a message shows it.
  const nameOf = (eventId: string) =>
    escapeMrkdwn(world.sim.events.find((e) => e.eventId === eventId)?.name ?? eventId);
  let nextChannel = 0;
  let nextShow = 0;
  const cases: AnswerCase[] = [];
  try {
    world.sim.setLatency(ANSWERS.latencyMs);
    for (const spec of CASES.filter((c) => !ONLY_CASE || c.name === ONLY_CASE)) {
      const samples: number[] = [];
      let inAck = 0;
      // The first run warms the handler and the worker up; it is not counted.
      for (let run = 0; run <= ANSWERS.runs; run++) {
        const channel = world.channels[nextChannel++] ?? 'C0ANS';
        const show = shows[nextShow++ % shows.length] ?? '26855';
        const other = shows[nextShow++ % shows.length] ?? '27317';
        const name = nameOf(show);
        if (spec.name === 'already') await onThePlan(world, channel, show);
        // A plan as it usually is: with a show and its canvas, made by an add before the one timed.
        if (spec.name === 'plan-add')
          await answerTime(world, {
            text: `plan add ${other}`,
            channel,
            answered: (text) => text.includes(`Added *${nameOf(other)}*`),
          });
        const answered = (text: string) => spec.answered(text, name);
        const answer = await answerTime(world, { text: spec.text(show, other, run), channel, answered });
        if (run === 0) continue;
        samples.push(answer.ms);
        if (answer.inAck) inAck++;
      }
      const today = TODAY_MS[spec.name];
      cases.push({
        name: spec.name,
        what: spec.what,
        ms: spreadOf(samples),
        inAck,
        service: spec.service,
        ...(today ? { todayMs: today } : {}),
      });
      log(`  ${spec.name}: done`);
    }
    return { settings: ANSWERS, cases, problems: world.problems.length };
  } finally {
    await world.close();
  }
}

/** The show on the channel's plan already, as `plan add` left it. */
async function onThePlan(world: World, channel: string, eventId: string) {
  const event = world.sim.events.find((e) => e.eventId === eventId);
  const show = {
    eventId,
    name: event?.name ?? null,
    dateStart: event?.dateStart ?? null,
    dateEnd: event?.dateEnd ?? null,
    city: event?.city ?? null,
    addedBy: USER,
    addedAt: new Date().toISOString(),
  };
  await world.store.plans.update(TEAM, channel, (plan) => addShow(plan, show));
}

/** One row per case: p50 / p95 beside the figure, against its target. */
export function answerRows(result: AnswersResult): Row[] {
  const { latencyMs, overRoundTripMs } = result.settings;
  return result.cases.map((c) => {
    const target = c.service
      ? `p95 ≤ ${fmt(latencyMs + overRoundTripMs)} ms (a service round trip + ${fmt(overRoundTripMs)} ms)`
      : `in the ack (${fmt(c.ms.count)} of ${fmt(c.ms.count)})`;
    const met = c.service ? c.ms.p95 <= latencyMs + overRoundTripMs : c.inAck === c.ms.count;
    const inAck = c.service ? '' : `; ${fmt(c.inAck)} of ${fmt(c.ms.count)} in the ack`;
    return [
      `answer p50 / p95, ${c.what}, service at ${fmt(latencyMs)} ms (baseline column: issue 35's figure on the local page)`,
      `${fmt(c.ms.p50)} / ${fmt(c.ms.p95)} ms${inAck}`,
      c.todayMs ? `${fmt(c.todayMs)} ms` : '—',
      '—',
      c.todayMs ? `${(c.ms.p95 / c.todayMs).toFixed(2)}×` : '—',
      `${target}: **${met ? 'met' : 'missed'}**`,
    ];
  });
}
