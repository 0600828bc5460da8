import { spawn } from 'node:child_process';
import { slackPostEvent } from '../local/lambda-http.ts';
import { slashCommandBody } from '../local/fake-slack/payloads.ts';
import { signedHeaders } from '../local/fake-slack/sign.ts';
import type { BundleName } from './build.ts';
import { type StandInWorld, TABLE_NAME, TEAM_ID } from './stand-in-world.ts';

const SIGNING_SECRET = 'bench-signing-secret';
const BOT_TOKEN = 'xoxb-bench-not-a-token';
const BOT_USER_ID = 'U0BOT';
const TIMEOUT_MS = 30_000;

export type Variant =
  | 'eventbot'
  | 'eventbot-auth-test'
  | 'eventbot-secrets-manager'
  | 'baseline'
  | 'baseline-stack'
  | 'baseline-stack-secrets-manager'
  | 'floor';
export const VARIANTS: Variant[] = [
  'eventbot',
  'eventbot-auth-test',
  'eventbot-secrets-manager',
  'baseline',
  'baseline-stack',
  'baseline-stack-secrets-manager',
  'floor',
];

/** What the Secrets Manager stand-in holds for the `eventbot-secrets-manager` starts. */
export const SLACK_SECRET = { slackSigningSecret: SIGNING_SECRET, slackBotToken: BOT_TOKEN };

export const BUNDLE_OF: Record<Variant, BundleName> = {
  eventbot: 'slack',
  'eventbot-auth-test': 'slack',
  'eventbot-secrets-manager': 'slack',
  baseline: 'baseline',
  'baseline-stack': 'baseline-stack',
  'baseline-stack-secrets-manager': 'baseline-stack-secrets-manager',
  floor: 'floor',
};

/** What each variant's ack must say: a fast wrong answer (an error, another workspace) is no ack. */
const EXPECTED_BODY: Record<Variant, string> = {
  eventbot: 'Working on /events fit',
  'eventbot-auth-test': 'Working on /events fit',
  'eventbot-secrets-manager': 'Working on /events fit',
  baseline: 'Working on it',
  'baseline-stack': 'Working on it',
  'baseline-stack-secrets-manager': 'Working on it',
  floor: '',
};

/** The process environment of a cold start: only what the variant reads, with dummy AWS credentials. */
export function envOf(variant: Variant, world: StandInWorld): Record<string, string> {
  const common = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_EC2_METADATA_DISABLED: 'true',
    // Lambda runs Node 22, where the SDK has no such notice to print.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_BOT_USER_ID: BOT_USER_ID,
  };
  if (variant === 'baseline' || variant === 'baseline-stack' || variant === 'floor') return common;
  if (variant === 'baseline-stack-secrets-manager') {
    // The Bolt app's Slack secrets from the same Secrets Manager stand-in (+100 ms), with the SDK.
    const { SLACK_SIGNING_SECRET: _secret, SLACK_BOT_TOKEN: _token, ...fromSecretsManager } = common;
    return { ...fromSecretsManager, ...secretsManagerEnv(world) };
  }
  const eventbot = {
    ...common,
    TABLE_NAME,
    AWS_ENDPOINT_URL_DYNAMODB: world.dynamodbUrl,
    AWS_ENDPOINT_URL_LAMBDA: world.lambdaUrl,
    WORKER_FUNCTION_NAME: 'eventbot-worker',
    EIS_BASE_URL: 'http://127.0.0.1:9/',
    EIS_API_KEY: 'bench-service-key',
    SLACK_API_URL: world.slackApiUrl,
    LOG_LEVEL: 'info',
    POWERTOOLS_SERVICE_NAME: 'eventbot',
    POWERTOOLS_METRICS_NAMESPACE: 'eventbot',
  };
  if (variant === 'eventbot') return { ...eventbot, SLACK_TEAM_ID: TEAM_ID };
  if (variant === 'eventbot-secrets-manager') {
    // The Slack secret read from Secrets Manager (the stand-in, +100 ms), as on AWS.
    const { SLACK_SIGNING_SECRET: _secret, SLACK_BOT_TOKEN: _token, ...fromSecretsManager } = eventbot;
    return { ...fromSecretsManager, SLACK_TEAM_ID: TEAM_ID, ...secretsManagerEnv(world) };
  }
  // Without SLACK_TEAM_ID the handler learns both ids from one auth.test.
  const { SLACK_BOT_USER_ID: _unset, ...withoutIds } = eventbot;
  return withoutIds;
}

/** The Slack secret's id and the Secrets Manager stand-in's address (+100 ms per request). */
const secretsManagerEnv = (world: StandInWorld) => ({
  APP_SECRET_ID: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:eventbot-bench',
  AWS_ENDPOINT_URL_SECRETS_MANAGER: world.secretsManagerUrl,
});

/** A signed `/events fit …` as API Gateway HTTP API v2 delivers it (body base64, as for form posts). */
export function slashCommandEvent(): unknown {
  const actor = { teamId: TEAM_ID, userId: 'U0BENCH', channelId: 'C0BENCH' };
  const body = slashCommandBody(actor, 'fit 26855', 'http://127.0.0.1:9/response');
  const headers = { ...signedHeaders(SIGNING_SECRET, body), host: 'bench.lambda-url.local' };
  return slackPostEvent(headers, body, `bench-${Date.now()}`);
}

/**
 * One cold start: a fresh `node` (with the stack's `--enable-source-maps`) runs the harness over the
 * bundle; the result is the time from just before the spawn to the handler's answer, and to the end
 * of the bundle's import.
 */
export async function coldStart(
  harness: string,
  bundle: string,
  variant: Variant,
  env: Record<string, string>,
): Promise<{ ms: number; initMs: number; cpuMs: number; initCpuMs: number }> {
  const spawnedAt = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--enable-source-maps', harness, bundle], {
    env: { ...env, BENCH_EVENT: JSON.stringify(slashCommandEvent()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = await collect(child);
  const line = output.stdout.split('\n').find((l) => l.startsWith('BENCH_ACK '));
  if (!line) throw new Error(`${variant}: no ack (exit ${output.code}): ${output.stderr.slice(-2000)}`);
  const ack = JSON.parse(line.slice('BENCH_ACK '.length)) as {
    loadedAt: string;
    ackAt: string;
    loadedCpuMs: number;
    ackCpuMs: number;
    statusCode: number;
    body: string;
  };
  if (ack.statusCode !== 200 || !ack.body.includes(EXPECTED_BODY[variant])) {
    throw new Error(`${variant}: unexpected ack ${ack.statusCode} ${ack.body.slice(0, 300)}`);
  }
  const since = (at: string) => Number(BigInt(at) - spawnedAt) / 1e6;
  return {
    ms: since(ack.ackAt),
    initMs: since(ack.loadedAt),
    cpuMs: ack.ackCpuMs,
    initCpuMs: ack.loadedCpuMs,
  };
}

function collect(
  child: ReturnType<typeof spawn>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Only this child, by its own handle: a hung start must not hold up the whole run.
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ColdStartSample {
  variant: Variant;
  delayMs: number;
  ms: number;
  /** Spawn → the bundle imported (its init phase, before the request). */
  initMs: number;
  /** CPU time (user + system) of the process at the ack, and when the bundle was imported. */
  cpuMs: number;
  initCpuMs: number;
  /** Requests each stand-in received during this start (all of them before the ack). */
  requests: ReturnType<StandInWorld['counts']>;
}

interface Plan {
  harness: string;
  bundleFile: (variant: Variant) => string;
  world: StandInWorld;
  runs: number;
  delays: number[];
}

/**
 * Every variant at every delay, `runs` times, interleaved: each round runs all of them, in an order
 * that rotates from round to round, so a busy moment on the machine falls on all of them alike. One
 * unrecorded start of each variant first warms the file cache.
 */
export async function measureColdStarts(
  plan: Plan,
  progress: (line: string) => void,
): Promise<ColdStartSample[]> {
  const { world } = plan;
  const once = async (variant: Variant, delayMs: number): Promise<ColdStartSample> => {
    world.setDelay(delayMs);
    world.resetCounts();
    const started = await coldStart(plan.harness, plan.bundleFile(variant), variant, envOf(variant, world));
    return { variant, delayMs, ...started, requests: world.counts() };
  };
  for (const variant of VARIANTS) await once(variant, 0);
  const cells = plan.delays.flatMap((delayMs) => VARIANTS.map((variant) => ({ variant, delayMs })));
  const samples: ColdStartSample[] = [];
  for (let round = 0; round < plan.runs; round++) {
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[(i + round) % cells.length];
      if (cell) samples.push(await once(cell.variant, cell.delayMs));
    }
    progress(`  cold starts: round ${round + 1}/${plan.runs}`);
  }
  return samples;
}
