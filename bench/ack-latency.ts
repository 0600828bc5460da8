import { serveLambda } from '../src/local/lambda-http.ts';
import { type Actor, blockActionsBody, buttonsOf, slashCommandBody } from '../src/local/slack/payloads.ts';
import { signedHeaders } from '../src/local/slack/sign.ts';
import { startSimulator } from '../src/simulator/server.ts';
import { createSlackHandlerLoader } from '../src/slack-runtime.ts';
import { createNaiveHandler } from './naive.ts';
import { fmt, fmtRatio, ratio, type Row } from './report.ts';
import { freshTable, localAwsEnvironment, quietLogger } from './services.ts';
import { startLambdaStandIn } from './stand-ins.ts';
import { type Spread, spreadOf } from './stats.ts';

/**
 * Ack latency through the real Slack handler (`createSlackHandlerLoader`, as `handlers/slack.ts`
 * builds it: its DynamoDB write and the worker's asynchronous invoke before the ack, the job not run)
 * against the naive handler (`naive.ts`, which awaits the service first), side by side, at three
 * service latencies. Requests are signed as Slack signs them; the four streams run at the same time.
 */
export const ACK = {
  requests: Number(process.env.BENCH_ACK_REQUESTS ?? 500) || 500,
  /** Per stream; the four streams (two handlers × commands and clicks) run at once. */
  perSecond: 10,
  latenciesMs: [0, 1000, 3000],
  warmUp: 50,
};
/** Slack gives up on an answer after 3 s. */
const SLACK_LIMIT_MS = 3000;

const SIGNING_SECRET = 'bench-ack-signing-secret';
const TEAM = 'T0BENCH';
const ACTOR: Actor = { teamId: TEAM, userId: 'U0BENCH', channelId: 'C0BENCH' };
const RESPONSE_URL = 'http://127.0.0.1:9/response';

export type Handler = 'eventbot' | 'naive';
export type Kind = 'command' | 'click';

export interface AckCase {
  handler: Handler;
  kind: Kind;
  latencyMs: number;
  ms: Spread;
  /** Answers later than Slack's 3 s. */
  overSlackLimit: number;
  /** Answers that were not the expected ack (status, or body for a command). */
  wrong: number;
  /** p50 and p99 ÷ the naive handler's in the same case (1 for the naive handler itself). */
  toNaive?: { p50: number; p99: number };
}

/** A list's Next button (free: the worker re-renders the list), as the events list renders it. */
const NEXT_PAGE = {
  ts: '1700000000.000100',
  channel: ACTOR.channelId,
  text: 'Events: fintech',
  blocks: [
    {
      type: 'actions',
      block_id: 'list-paging',
      elements: [
        {
          type: 'button',
          action_id: 'list.page.next',
          text: { type: 'plain_text', text: 'Next →' },
          value: JSON.stringify({ list: 'events', query: { keywords: 'fintech' }, page: 2 }),
        },
      ],
    },
  ],
};

function requestBody(kind: Kind): string {
  if (kind === 'command') return slashCommandBody(ACTOR, 'fit 26855', RESPONSE_URL);
  const [clicked] = buttonsOf(NEXT_PAGE);
  if (!clicked) throw new Error('no Next button');
  return blockActionsBody(ACTOR, NEXT_PAGE, clicked, RESPONSE_URL);
}

const STREAMS: { handler: Handler; kind: Kind }[] = [
  { handler: 'eventbot', kind: 'command' },
  { handler: 'naive', kind: 'command' },
  { handler: 'eventbot', kind: 'click' },
  { handler: 'naive', kind: 'click' },
];

const EXPECTED: Record<Handler, string> = { eventbot: 'Working on /events fit', naive: 'Fit score' };

/** One signed request to a handler: how long its answer took, and whether it was the expected ack. */
async function once(url: string, handler: Handler, kind: Kind): Promise<{ ms: number; ok: boolean }> {
  const body = requestBody(kind);
  const started = performance.now();
  const response = await fetch(`${url}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SIGNING_SECRET, body),
    body,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  return { ms, ok: response.status === 200 && (kind === 'click' || text.includes(EXPECTED[handler])) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * `count` requests of one kind to one handler at a steady `ACK.perSecond`, as Slack delivers clicks and
 * commands: without waiting for earlier answers (so at most rate × answer time are in flight).
 */
async function stream(url: string, handler: Handler, kind: Kind, count: number) {
  const answers: Promise<{ ms: number; ok: boolean }>[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    await sleep(started + (i * 1000) / ACK.perSecond - performance.now());
    answers.push(once(url, handler, kind));
  }
  const done = await Promise.all(answers);
  return { samples: done.map((answer) => answer.ms), wrong: done.filter((answer) => !answer.ok).length };
}

async function startHandlers(dynamoEndpoint: string, serviceUrl: string, apiKey: string) {
  const lambda = await startLambdaStandIn();
  localAwsEnvironment({ LAMBDA: lambda.url });
  const tableName = 'eventbot-bench-ack';
  const client = await freshTable(dynamoEndpoint, tableName);
  const { logger, problems } = quietLogger();
  const load = createSlackHandlerLoader(
    {
      TABLE_NAME: tableName,
      AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
      EIS_BASE_URL: serviceUrl,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_BOT_TOKEN: 'xoxb-bench-not-a-token',
      SLACK_TEAM_ID: TEAM,
      SLACK_BOT_USER_ID: 'U0BOT',
      WORKER_FUNCTION_NAME: 'eventbot-worker',
    },
    { logger },
  );
  const eventbot = await serveLambda(async (event, context) => (await load()).handler(event, context));
  const naiveHandler = createNaiveHandler({
    signingSecret: SIGNING_SECRET,
    botToken: 'xoxb-bench-not-a-token',
    botUserId: 'U0BOT',
    serviceUrl,
    apiKey,
  });
  const naive = await serveLambda(async (event, context) => {
    const result = await naiveHandler(event, context);
    return { statusCode: result.statusCode, body: result.body };
  });
  const close = async () => {
    await Promise.all([eventbot.close(), naive.close(), lambda.close()]);
    client.destroy();
  };
  return {
    urls: { eventbot: eventbot.url, naive: naive.url },
    invokes: () => lambda.invokes(),
    problems,
    close,
  };
}

export interface AckResult {
  settings: typeof ACK;
  cases: AckCase[];
  /** Worker invokes the real handler made (one per request, warm-up included). */
  workerInvokes: number;
  /** Warnings and errors the real handler logged. */
  problems: number;
}

export async function measureAckLatency(
  dynamoEndpoint: string,
  log: (line: string) => void,
): Promise<AckResult> {
  const sim = await startSimulator();
  const apiKey = 'sk_bench_ack';
  sim.addKey(apiKey);
  const world = await startHandlers(dynamoEndpoint, sim.url, apiKey);
  const cases: AckCase[] = [];
  try {
    await Promise.all(
      STREAMS.map(({ handler, kind }) => stream(world.urls[handler], handler, kind, ACK.warmUp)),
    );
    for (const latencyMs of ACK.latenciesMs) {
      sim.setLatency(latencyMs);
      const results = await Promise.all(
        STREAMS.map(({ handler, kind }) => stream(world.urls[handler], handler, kind, ACK.requests)),
      );
      results.forEach(({ samples, wrong }, i) => {
        const { handler, kind } = STREAMS[i] ?? { handler: 'eventbot', kind: 'command' };
        const overSlackLimit = samples.filter((ms) => ms > SLACK_LIMIT_MS).length;
        cases.push({ handler, kind, latencyMs, ms: spreadOf(samples), overSlackLimit, wrong });
      });
      log(`  acks at ${latencyMs} ms service latency: done`);
    }
    for (const mine of cases) {
      const naive = cases.find(
        (c) => c.handler === 'naive' && c.kind === mine.kind && c.latencyMs === mine.latencyMs,
      );
      if (naive) mine.toNaive = { p50: mine.ms.p50 / naive.ms.p50, p99: mine.ms.p99 / naive.ms.p99 };
    }
    return { settings: ACK, cases, workerInvokes: world.invokes(), problems: world.problems.length };
  } finally {
    await world.close();
    await sim.close();
  }
}

const cellOf = (c: AckCase) => `${fmt(c.ms.p50)} / ${fmt(c.ms.p99)} ms`;

function verdictOf(mine: AckCase, naive: AckCase): string {
  const n = fmt(mine.ms.count);
  const met = mine.ms.p99 < SLACK_LIMIT_MS && mine.wrong === 0;
  const own = met
    ? `p99 < 3 s (Slack's limit): **met**`
    : `p99 < 3 s (Slack's limit): **missed** (${fmt(mine.overSlackLimit)} of ${n} over 3 s, ${fmt(mine.wrong)} wrong answers)`;
  return naive.overSlackLimit > 0 ? `${own}; naive: ${fmt(naive.overSlackLimit)} of ${n} over 3 s` : own;
}

/** One row per service latency and request kind: eventbot against the naive handler. */
export function ackRows(result: AckResult): Row[] {
  const rows: Row[] = [];
  for (const latencyMs of result.settings.latenciesMs) {
    for (const kind of ['command', 'click'] as const) {
      const find = (handler: Handler) =>
        result.cases.find((c) => c.handler === handler && c.kind === kind && c.latencyMs === latencyMs);
      const [mine, naive] = [find('eventbot'), find('naive')];
      if (!mine || !naive) continue;
      const what =
        kind === 'command'
          ? `${fmt(mine.ms.count)} slash commands (\`/events fit\`)`
          : `${fmt(mine.ms.count)} clicks (a list's Next)`;
      rows.push([
        `ack p50 / p99, ${what}, service at ${fmt(latencyMs)} ms (baseline column: a naive handler that awaits the service)`,
        cellOf(mine),
        cellOf(naive),
        '—',
        `${fmtRatio(ratio(mine.ms.p50, naive.ms.p50))} / ${fmtRatio(ratio(mine.ms.p99, naive.ms.p99))}`,
        verdictOf(mine, naive),
      ]);
    }
  }
  return rows;
}
