import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildHarness } from '../../bench/build.ts';
import { startLambdaStandIn } from '../../bench/stand-ins.ts';
import { slackPostEvent } from '../../local/lambda-http.ts';
import { type FakeSlack, startFakeSlack } from '../../local/fake-slack/fake-slack.ts';
import { slashCommandBody } from '../../local/fake-slack/payloads.ts';
import { signedHeaders } from '../../local/fake-slack/sign.ts';
import { BOLT_ON_LAMBDA_ALIASES } from '../../infra/bundling/aliases.ts';
import { splitBundleOptions } from '../../infra/bundling/split-bundle.ts';
import { addShow } from '../../src/domain/plan/index.ts';
import { createLocalKeyCipher } from '../../src/platform/config/key-cipher.ts';
import { NOT_INSTALLED_TEXT } from '../../src/slack/app.ts';
import { createStore } from '../../src/store/index.ts';
import { createDocumentClient, ensureTable } from '../../src/store/table.ts';

// The Slack function as the stack bundles it (split, with its aliases), started cold in a fresh
// `node` per request: a command's ack needs none of Bolt's code; a request that does loads it.

const ROOT = new URL('../../', import.meta.url).pathname;
const SECRET = 'cold-start-signing-secret';
const TEAM = 'T0COLD';
const TABLE = `cold-start-${Date.now()}`;
const ALICE = { teamId: TEAM, userId: 'U0ALICE', channelId: 'C0COLD' };
/** A distributed app's workspace: installed, its service key connected (stored in the table first). */
const INSTALLED = 'T0DIST';
const BOB = { teamId: INSTALLED, userId: 'U0BOB', channelId: 'C0DIST' };
const GHOST = { teamId: 'T0GHOST', userId: 'U0GHOST', channelId: 'C0GHOST' };

/** One workspace's app: its bot token in the environment. */
const SINGLE_WORKSPACE = {
  EIS_API_KEY: 'cold-service-key',
  SLACK_BOT_TOKEN: 'xoxb-cold',
  SLACK_BOT_USER_ID: 'U0BOT',
  SLACK_TEAM_ID: TEAM,
};
/** A distributed app: no bot token and no service key in the environment, each workspace's in the table. */
const DISTRIBUTED = {
  SLACK_CLIENT_ID: 'cold-client-id',
  SLACK_CLIENT_SECRET: 'cold-client-secret',
  SLACK_STATE_SECRET: 'cold-state-secret',
};

let dir: string;
let harness: string;
let withoutBolt: string;
let lambda: Awaited<ReturnType<typeof startLambdaStandIn>>;
let slack: FakeSlack;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventbot-cold-'));
  const { metafile } = await build({
    ...splitBundleOptions(join(ROOT, 'handlers/slack.ts'), join(dir, 'full'), BOLT_ON_LAMBDA_ALIASES),
    absWorkingDir: ROOT,
    metafile: true,
    logLevel: 'silent',
  });
  // The same bundle without the chunks holding Bolt's code.
  withoutBolt = join(dir, 'without-bolt');
  cpSync(join(dir, 'full'), withoutBolt, { recursive: true });
  const boltChunks = Object.entries(metafile.outputs).filter(([, output]) =>
    Object.keys(output.inputs).some((input) => input.includes('node_modules/@slack/bolt/')),
  );
  expect(boltChunks.length).toBeGreaterThan(0);
  for (const [file] of boltChunks)
    rmSync(join(withoutBolt, file.slice(file.indexOf('/full/') + '/full/'.length)));
  harness = await buildHarness(dir);
  const client = createDocumentClient({ endpoint: inject('dynamoEndpoint') });
  await ensureTable(client, TABLE);
  // The table's dev cipher is the bundle's too (no KMS_KEY_ID, no LOCAL_ENCRYPTION_KEY).
  const store = createStore({ client, tableName: TABLE, keyCipher: createLocalKeyCipher() });
  await store.installations.storeInstallation({
    team: { id: INSTALLED },
    enterprise: undefined,
    user: { token: undefined, scopes: undefined, id: 'U0ADMIN' },
    bot: { token: 'xoxb-dist-cold', scopes: ['commands'], id: 'B0DIST', userId: 'U0DISTBOT' },
    tokenType: 'bot',
    isEnterpriseInstall: false,
  });
  await store.workspaces.putServiceKey({
    teamId: INSTALLED,
    serviceKey: 'sk_cold_0123456789abcdef',
    connectedBy: 'U0ADMIN',
  });
  client.destroy();
  lambda = await startLambdaStandIn();
  slack = await startFakeSlack();
}, 60_000);

afterAll(async () => {
  await lambda?.close();
  await slack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One cold start of the bundle in `bundleDir`, answering one signed `/events <text>` from `actor`. */
function coldCommand(
  bundleDir: string,
  text: string,
  { actor = ALICE, app = SINGLE_WORKSPACE }: { actor?: typeof ALICE; app?: Record<string, string> } = {},
): Promise<{ statusCode?: number; body?: string; stderr: string }> {
  const body = slashCommandBody(actor, text, 'http://127.0.0.1:9/response');
  const event = slackPostEvent(signedHeaders(SECRET, body), body, `cold-${text}`);
  const child = spawn(process.execPath, [harness, join(bundleDir, 'index.mjs')], {
    env: {
      PATH: process.env.PATH ?? '',
      BENCH_EVENT: JSON.stringify(event),
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'cold',
      AWS_SECRET_ACCESS_KEY: 'cold',
      TABLE_NAME: TABLE,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      AWS_ENDPOINT_URL_LAMBDA: lambda.url,
      WORKER_FUNCTION_NAME: 'eventbot-worker',
      EIS_BASE_URL: 'http://127.0.0.1:9/',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      ...app,
      // A suite run with the clock moved (docs/reliability.md) moves the function's clock with it, to this
      // process's now, so the signed request's timestamp is fresh there too.
      ...(process.env.BAR_NOW && process.env.NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.NODE_OPTIONS, BAR_NOW: new Date().toISOString() }
        : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', () => {
      const line = stdout.split('\n').find((l) => l.startsWith('BENCH_ACK '));
      const ack = line
        ? (JSON.parse(line.slice('BENCH_ACK '.length)) as { statusCode: number; body: string })
        : {};
      resolve({ ...ack, stderr });
    });
  });
}

describe('the bundled Slack function from cold', () => {
  it('acks a command without loading any of Bolt’s code, having handed it to the worker', async () => {
    const invokesBefore = lambda.invokes('eventbot-worker');

    const ack = await coldCommand(withoutBolt, 'fit 26855');

    expect(ack.statusCode, ack.stderr).toBe(200);
    expect(ack.body).toContain('Working on /events fit 26855');
    expect(lambda.invokes('eventbot-worker')).toBe(invokesBefore + 1);
  }, 30_000);

  it('loads Bolt for a request that needs it: a command a modal stands for opens it', async () => {
    const opened = () => slack.calls.filter((call) => call.method === 'views.open').length;
    const before = opened();

    const ack = await coldCommand(join(dir, 'full'), 'digest on');
    const missingBolt = await coldCommand(withoutBolt, 'digest on');

    expect(ack.statusCode, ack.stderr).toBe(200);
    expect(opened()).toBe(before + 1);
    // The chunks removed above are the ones such a request loads.
    expect(missingBolt.statusCode).toBeUndefined();
  }, 30_000);
  it('answers `plan add` of a show already on the plan in the ack, from the stored plan: no Bolt, no job', async () => {
    const client = createDocumentClient({ endpoint: inject('dynamoEndpoint') });
    const show = { eventId: '26855', name: 'Cold Expo', dateStart: null, dateEnd: null, city: null };
    await createStore({ client, tableName: TABLE }).plans.update(TEAM, ALICE.channelId, (current) =>
      addShow(current, { ...show, addedBy: 'U0ALICE', addedAt: new Date().toISOString() }),
    );
    client.destroy();
    const invokesBefore = lambda.invokes('eventbot-worker');

    const ack = await coldCommand(withoutBolt, 'plan add 26855');

    expect(ack.statusCode, ack.stderr).toBe(200);
    expect(ack.body).toContain('*Cold Expo* is already on this channel’s plan');
    expect(lambda.invokes('eventbot-worker')).toBe(invokesBefore);
  }, 30_000);

  it('acks a distributed app’s command from an installed, connected workspace without any of Bolt’s code', async () => {
    const invokesBefore = lambda.invokes('eventbot-worker');

    const ack = await coldCommand(withoutBolt, 'fit 26855', { actor: BOB, app: DISTRIBUTED });

    expect(ack.statusCode, ack.stderr).toBe(200);
    expect(ack.body).toContain('Working on /events fit 26855');
    expect(lambda.invokes('eventbot-worker')).toBe(invokesBefore + 1);
  }, 30_000);

  it('leaves a distributed app’s command from a workspace without an install to Bolt, which refuses it', async () => {
    const invokesBefore = lambda.invokes('eventbot-worker');

    const ack = await coldCommand(join(dir, 'full'), 'fit 26855', { actor: GHOST, app: DISTRIBUTED });
    const missingBolt = await coldCommand(withoutBolt, 'fit 26855', { actor: GHOST, app: DISTRIBUTED });

    expect(ack.statusCode, ack.stderr).toBe(200);
    expect(JSON.parse(ack.body ?? '{}')).toEqual({ response_type: 'ephemeral', text: NOT_INSTALLED_TEXT });
    expect(lambda.invokes('eventbot-worker')).toBe(invokesBefore);
    expect(missingBolt.statusCode).toBeUndefined();
  }, 30_000);
});
