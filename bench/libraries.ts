import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT, STACK_ESBUILD } from './build.ts';
import { percentile } from './stats.ts';

/**
 * `npx tsx bench/libraries.ts` (on demand, not part of `npm test`, no network): what Powertools
 * Parameters and Idempotency would cost against our secrets cache and delivery log, as the
 * "Kept libraries and hand-written code" section of docs/performance.md reports it. Each variant is a
 * small bundle built with the stack's esbuild settings that does what our module does; all of them
 * also hold what every handler already bundles (the Powertools logger, zod, the SDK clients), so
 * "floor" is that alone and the difference to it is each module's own cost.
 * The libraries are not project dependencies: pack them into a scratch folder first, e.g.
 *   npm pack @aws-lambda-powertools/parameters@2.35.0 @aws-lambda-powertools/idempotency@2.35.0
 *   npm i --prefix /tmp/pt --legacy-peer-deps ./aws-lambda-powertools-*.tgz
 * (`--legacy-peer-deps` so the SDK resolves to the project's copy). `PT_DIR` names the folder
 * (default /tmp/pt), `LIB_RUNS` the fresh processes per variant (default 21).
 */
const PT_DIR = process.env.PT_DIR ?? '/tmp/pt';
const RUNS = Math.max(15, Number(process.env.LIB_RUNS ?? 21) || 21);

const src = (path: string) => JSON.stringify(join(ROOT, path));
const SHARED = `
import { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod';
export const logger = new Logger({ serviceName: 'bench' });
export const schema = z.object({ slackSigningSecret: z.string().min(1), slackBotToken: z.string().min(1) });`;
const SECRETS_CLIENT = `
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
const secretsClient = new SecretsManagerClient({ region: 'us-east-1' });`;
const DYNAMO_CLIENT = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
const dynamo = new DynamoDBClient({ region: 'us-east-1' });
export const documents = DynamoDBDocumentClient.from(dynamo);
// The store's keys, the records and the store's schemas, and its helpers: every handler with a store loads them whatever dedupes.
export * as keys from ${src('src/store/keys.ts')};
export * as records from ${src('src/domain/ports/records.ts')};
export * as schemas from ${src('src/store/schemas.ts')};
export * as support from ${src('src/store/support.ts')};`;

/** Each variant's entry: what its module needs to be ready for the first request (no call is made). */
const ENTRIES = {
  'secrets floor': `${SHARED}${SECRETS_CLIENT}
export const client = secretsClient;`,
  'secrets ours': `${SHARED}${SECRETS_CLIENT}
import { createSecretsProvider } from ${src('src/platform/config/secrets.ts')};
export const read = createSecretsProvider({ APP_SECRET_ID: 'eventbot/app' }, { client: () => secretsClient });`,
  'secrets Parameters': `${SHARED}${SECRETS_CLIENT}
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
const provider = new SecretsProvider({ awsSdkV3Client: secretsClient });
export const read = async () => schema.parse(await provider.get('eventbot/app', { transform: 'json', maxAge: 300 }));`,
  'dedupe floor': `${SHARED}${DYNAMO_CLIENT}`,
  'dedupe ours': `${SHARED}${DYNAMO_CLIENT}
import { createDeliveryLog } from ${src('src/store/deliveries.ts')};
export const deliveries = createDeliveryLog({ client: documents, tableName: 'eventbot' });`,
  'dedupe Idempotency': `${SHARED}${DYNAMO_CLIENT}
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
const persistenceStore = new DynamoDBPersistenceLayer({
  tableName: 'eventbot', keyAttr: 'pk', sortKeyAttr: 'sk', awsSdkV3Client: dynamo,
});
const config = new IdempotencyConfig({ eventKeyJmesPath: 'id', expiresAfterSeconds: 86400 });
export const runJob = makeIdempotent(async (job) => job.id, { persistenceStore, config });`,
} as const;
type Variant = keyof typeof ENTRIES;
const VARIANTS = Object.keys(ENTRIES) as Variant[];

async function bundle(variant: Variant, workDir: string): Promise<string> {
  const dir = join(workDir, variant.replace(' ', '-'));
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, ENTRIES[variant]);
  const outfile = join(dir, 'index.mjs');
  await build({
    ...STACK_ESBUILD,
    entryPoints: [entry],
    outfile,
    // The packed libraries first, then the project's own copies (SDK, zod, logger) for everything else.
    nodePaths: [join(PT_DIR, 'node_modules'), join(ROOT, 'node_modules')],
  });
  return outfile;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}
type Samples = Record<Variant, Sample[]>;

/**
 * One cold import in a fresh `node`, from before the import to the module ready: the wall time, and
 * the process's CPU time over it (on a busy shared machine the steadier of the two).
 */
function coldImport(file: string): Sample {
  const script = [
    'const t = performance.now(), c = process.cpuUsage();',
    `await import(${JSON.stringify(pathToFileURL(file).href)});`,
    'const { user, system } = process.cpuUsage(c);',
    'console.log(JSON.stringify({ wallMs: performance.now() - t, cpuMs: (user + system) / 1000 }));',
  ].join(' ');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'us-east-1',
      // Lambda runs Node 22, where the SDK has no such notice to print.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as Sample;
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(1);

async function main() {
  const packed = ['parameters', 'idempotency'].map((name) =>
    join(PT_DIR, 'node_modules/@aws-lambda-powertools', name, 'package.json'),
  );
  if (!packed.every((file) => existsSync(file))) {
    console.log(`Skipped: the Powertools Parameters and Idempotency packages are not in ${PT_DIR}.`);
    console.log('Pack and install them there first (see the comment at the top of bench/libraries.ts).');
    return;
  }
  const versions = packed.map(
    (file) => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version,
  );
  const workDir = mkdtempSync(join(tmpdir(), 'eventbot-libraries-'));
  try {
    const files = {} as Record<Variant, string>;
    for (const variant of VARIANTS) files[variant] = await bundle(variant, workDir);
    const samples = Object.fromEntries(VARIANTS.map((v) => [v, [] as Sample[]])) as Samples;
    coldImport(files['secrets floor']); // warms the disk cache, not measured
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, and the order turned each round, so a busy neighbour lands on every variant alike.
      const order = run % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      for (const variant of order) samples[variant].push(coldImport(files[variant]));
    }
    report(files, samples, versions);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function report(files: Record<Variant, string>, samples: Samples, versions: string[]) {
  const size = (v: Variant) => statSync(files[v]).size;
  const median = (v: Variant, of: keyof Sample) =>
    percentile(
      samples[v].map((s) => s[of]),
      50,
    );
  const load = loadavg()[0]?.toFixed(1) ?? '?';
  console.log(`Powertools Parameters ${versions[0]}, Idempotency ${versions[1]}; node ${process.version};`);
  console.log(`median of ${RUNS} fresh processes per variant, interleaved; load average ${load}.\n`);
  console.log(
    '| variant | bundle KiB | over floor | import wall ms | over floor | import CPU ms | over floor |',
  );
  console.log('| --- | --: | --: | --: | --: | --: | --: |');
  for (const variant of VARIANTS) {
    const floor = variant.startsWith('secrets') ? 'secrets floor' : 'dedupe floor';
    const cells = [variant, kib(size(variant)), kib(size(variant) - size(floor))];
    for (const of of ['wallMs', 'cpuMs'] as const) {
      cells.push(ms(median(variant, of)), ms(median(variant, of) - median(floor, of)));
    }
    console.log(`| ${cells.join(' | ')} |`);
  }
  console.log('');
  const ratio = (library: Variant, ours: Variant, of: keyof Sample) =>
    (median(library, of) / median(ours, of)).toFixed(2);
  for (const [name, library, ours] of [
    ['Parameters', 'secrets Parameters', 'secrets ours'],
    ['Idempotency', 'dedupe Idempotency', 'dedupe ours'],
  ] as const) {
    const wall = ratio(library, ours, 'wallMs');
    console.log(`${name} / ours, cold import: ${wall}× wall, ${ratio(library, ours, 'cpuMs')}× CPU`);
  }
}

await main();
