import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readEnv } from '../src/platform/config/env.ts';
import { createKeyCipher } from '../src/platform/config/kms-key-cipher.ts';
import { serveLambda } from '../local/lambda-http.ts';
import type { Logger } from '../src/platform/log.ts';
import { type Actor, blockActionsBody, buttonsOf, slashCommandBody } from '../local/fake-slack/payloads.ts';
import { signedHeaders } from '../local/fake-slack/sign.ts';
import { startSimulator } from '../simulator/server.ts';
import { createSlackHandlerLoader } from '../src/roots/slack-runtime.ts';
import { createStore } from '../src/store/index.ts';
import { createNaiveHandler } from './naive.ts';
import { fmt, fmtRatio, ratio, type Row } from './report.ts';
import { freshTable, localAwsEnvironment, quietLogger } from './services.ts';
import { startLambdaStandIn } from './stand-ins.ts';
import { type Spread, spreadOf } from './stats.ts';

/**
 * Ack latency through the real Slack handler (`createSlackHandlerLoader`, as `handlers/slack.ts`
 * builds it: its DynamoDB write and the worker's asynchronous invoke before the ack, the job not run)
 * against the naive handler (`naive.ts`, which awaits the service first), side by side, at three
 * service latencies. The same real handler built as a distributed app (issue 15: `SLACK_CLIENT_ID`
 * set, TEAM installed and its key connected in the table) takes the same streams: before its ack it
 * also reads the installation (Bolt's authorize) and the key record (`untilConnected`), and is
 * compared with the single-workspace one. Requests are signed as Slack signs them; the six streams
 * run at the same time, so the distributed app adds load but no time to the run.
 */
export const ACK = {
  requests: Number(process.env.BENCH_ACK_REQUESTS ?? 500) || 500,
  /** Per stream; the six streams (three handlers × commands and clicks) run at once. */
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

/** `eventbot` is the single-workspace app; `distributed` the same handler as a distributed app. */
export type Handler = 'eventbot' | 'distributed' | 'naive';
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
  toNaive?: Ratios;
  /** The distributed app's p50 and p99 ÷ the single-workspace app's in the same case. */
  toSingle?: Ratios;
}

interface Ratios {
  p50: number;
  p99: number;
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
  { handler: 'distributed', kind: 'command' },
  { handler: 'naive', kind: 'command' },
  { handler: 'eventbot', kind: 'click' },
  { handler: 'distributed', kind: 'click' },
  { handler: 'naive', kind: 'click' },
];

const EXPECTED: Record<Handler, string> = {
  eventbot: 'Working on /events fit',
  distributed: 'Working on /events fit',
  naive: 'Fit score',
};

/** Each real handler dispatches to its own worker name, so the stand-in counts their invokes apart. */
const WORKER: Record<Exclude<Handler, 'naive'>, string> = {
  eventbot: 'eventbot-worker',
  distributed: 'eventbot-worker-distributed',
};

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

/**
 * The distributed app: TEAM installed (as the OAuth redirect stores it, a bot token that never
 * expires, so no refresh) and its key connected, both encrypted with the app's local cipher.
 */
async function startDistributed(
  common: { TABLE_NAME: string } & Record<string, string>,
  client: DynamoDBDocumentClient,
  apiKey: string,
  logger: Logger,
) {
  const env = {
    ...common,
    SLACK_CLIENT_ID: 'bench-client-id',
    SLACK_CLIENT_SECRET: 'bench-client-secret',
    SLACK_STATE_SECRET: 'bench-state-secret',
    // Nothing should call Slack before the ack; were something to, it fails here (and is counted).
    SLACK_API_URL: 'http://127.0.0.1:9/api/',
    WORKER_FUNCTION_NAME: WORKER.distributed,
  };
  const store = createStore({ client, tableName: env.TABLE_NAME, keyCipher: createKeyCipher(readEnv(env)) });
  await store.installations.storeInstallation({
    team: { id: TEAM, name: 'Bench' },
    enterprise: undefined,
    user: { id: ACTOR.userId, token: undefined, scopes: undefined },
    bot: {
      token: 'xoxb-bench-not-a-token',
      scopes: ['commands', 'chat:write'],
      id: 'B0BOT',
      userId: 'U0BOT',
    },
    tokenType: 'bot',
    isEnterpriseInstall: false,
    authVersion: 'v2',
  });
  await store.workspaces.putServiceKey({ teamId: TEAM, serviceKey: apiKey, connectedBy: ACTOR.userId });
  const load = createSlackHandlerLoader(env, { logger });
  return serveLambda(async (event, context) => (await load()).handler(event, context));
}

async function startHandlers(dynamoEndpoint: string, serviceUrl: string, apiKey: string) {
  const lambda = await startLambdaStandIn();
  localAwsEnvironment({ LAMBDA: lambda.url });
  const tableName = 'eventbot-bench-ack';
  const client = await freshTable(dynamoEndpoint, tableName);
  const { logger, problems } = quietLogger();
  const common = {
    TABLE_NAME: tableName,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    EIS_BASE_URL: serviceUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
  };
  const load = createSlackHandlerLoader(
    {
      ...common,
      SLACK_BOT_TOKEN: 'xoxb-bench-not-a-token',
      SLACK_TEAM_ID: TEAM,
      SLACK_BOT_USER_ID: 'U0BOT',
      WORKER_FUNCTION_NAME: WORKER.eventbot,
    },
    { logger },
  );
  const eventbot = await serveLambda(async (event, context) => (await load()).handler(event, context));
  const distributed = await startDistributed(common, client, apiKey, logger);
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
    await Promise.all([eventbot.close(), distributed.close(), naive.close(), lambda.close()]);
    client.destroy();
  };
  return {
    urls: { eventbot: eventbot.url, distributed: distributed.url, naive: naive.url },
    invokes: () => ({
      eventbot: lambda.invokes(WORKER.eventbot),
      distributed: lambda.invokes(WORKER.distributed),
    }),
    problems,
    close,
  };
}

export interface AckResult {
  settings: typeof ACK;
  cases: AckCase[];
  /** Worker invokes each real handler made (one per request, warm-up included). */
  workerInvokes: Record<keyof typeof WORKER, number>;
  /** Warnings and errors the real handlers logged. */
  problems: number;
}

export async function measureAckLatency(
  dynamoEndpoint: string,
  log: (line: string) => void,
): Promise<AckResult> {
  const sim = await startSimulator();
  const apiKey = 'sk_test_bench_ack';
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
    const ratios = (mine: AckCase, other: AckCase) => ({
      p50: mine.ms.p50 / other.ms.p50,
      p99: mine.ms.p99 / other.ms.p99,
    });
    for (const mine of cases) {
      const naive = sameCase(cases, 'naive', mine);
      if (naive) mine.toNaive = ratios(mine, naive);
      const single = mine.handler === 'distributed' ? sameCase(cases, 'eventbot', mine) : undefined;
      if (single) mine.toSingle = ratios(mine, single);
    }
    const workerInvokes = world.invokes();
    // A click the app answered without dispatching (a workspace it takes as unconnected, say) still
    // looks like an ack: every request must have reached the worker.
    const expected = ACK.warmUp * 2 + ACK.requests * 2 * ACK.latenciesMs.length;
    for (const [handler, invokes] of Object.entries(workerInvokes))
      if (invokes !== expected)
        log(`  WARNING: ${handler} dispatched ${invokes} jobs for ${expected} requests`);
    return { settings: ACK, cases, workerInvokes, problems: world.problems.length };
  } finally {
    await world.close();
    await sim.close();
  }
}

const sameCase = (cases: AckCase[], handler: Handler, like: Pick<AckCase, 'kind' | 'latencyMs'>) =>
  cases.find((c) => c.handler === handler && c.kind === like.kind && c.latencyMs === like.latencyMs);

const cellOf = (c: AckCase) => `${fmt(c.ms.p50)} / ${fmt(c.ms.p99)} ms`;

function verdictOf(mine: AckCase, naive: AckCase): string {
  const n = fmt(mine.ms.count);
  const met = mine.ms.p99 < SLACK_LIMIT_MS && mine.wrong === 0;
  const own = met
    ? `p99 < 3 s (Slack's limit): **met**`
    : `p99 < 3 s (Slack's limit): **missed** (${fmt(mine.overSlackLimit)} of ${n} over 3 s, ${fmt(mine.wrong)} wrong answers)`;
  return naive.overSlackLimit > 0 ? `${own}; naive: ${fmt(naive.overSlackLimit)} of ${n} over 3 s` : own;
}

const whatOf = (c: AckCase) =>
  c.kind === 'command'
    ? `${fmt(c.ms.count)} slash commands (\`/events fit\`)`
    : `${fmt(c.ms.count)} clicks (a list's Next)`;

const ratiosOf = (mine: AckCase, other: AckCase) =>
  `${fmtRatio(ratio(mine.ms.p50, other.ms.p50))} / ${fmtRatio(ratio(mine.ms.p99, other.ms.p99))}`;

/**
 * One row per service latency and request kind: eventbot against the naive handler; then the same
 * for the distributed app against the single-workspace one (no target: issue 15 set none).
 */
export function ackRows(result: AckResult): Row[] {
  const rows: Row[] = [];
  const each = (add: (latencyMs: number, kind: Kind) => void) => {
    for (const latencyMs of result.settings.latenciesMs)
      for (const kind of ['command', 'click'] as const) add(latencyMs, kind);
  };
  each((latencyMs, kind) => {
    const [mine, naive] = [
      sameCase(result.cases, 'eventbot', { kind, latencyMs }),
      sameCase(result.cases, 'naive', { kind, latencyMs }),
    ];
    if (!mine || !naive) return;
    rows.push([
      `ack p50 / p99, ${whatOf(mine)}, service at ${fmt(latencyMs)} ms (baseline column: a naive handler that awaits the service)`,
      cellOf(mine),
      cellOf(naive),
      '—',
      ratiosOf(mine, naive),
      verdictOf(mine, naive),
    ]);
  });
  each((latencyMs, kind) => {
    const [mine, single] = [
      sameCase(result.cases, 'distributed', { kind, latencyMs }),
      sameCase(result.cases, 'eventbot', { kind, latencyMs }),
    ];
    if (!mine || !single) return;
    const wrong = mine.wrong > 0 ? `; ${fmt(mine.wrong)} of ${fmt(mine.ms.count)} wrong answers` : '';
    rows.push([
      `ack p50 / p99, ${whatOf(mine)}, service at ${fmt(latencyMs)} ms: distributed app (installation and key read per request) vs single workspace (baseline column)`,
      cellOf(mine),
      cellOf(single),
      '—',
      ratiosOf(mine, single),
      `— (no target)${wrong}`,
    ]);
  });
  return rows;
}
