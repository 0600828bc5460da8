import { execFileSync, spawn } from 'node:child_process';
import { describe, it } from 'vitest';

// `npm run dev` as a developer starts it, stopped as a terminal or a process manager stops it.
// Not a unit test in the strict sense: it runs the real script, DynamoDB Local (Java) included.

const hasJava = (() => {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Pids of `root` and everything it started, with their command lines. */
function processTree(root: number): { pid: number; command: string }[] {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((match) => match !== null)
    .map(([, pid, ppid, command]) => ({ pid: Number(pid), ppid: Number(ppid), command: command ?? '' }));
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (tree.has(row.ppid) && !tree.has(row.pid)) {
        tree.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((row) => tree.has(row.pid)).map(({ pid, command }) => ({ pid, command }));
}

/** Those of `pids` still running (a zombie waiting to be reaped has stopped). */
function running(pids: number[]): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '-o', 'stat=', '-p', pids.join(',')], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([pid, stat]) => pid && !stat?.startsWith('Z'))
      .map(([pid]) => Number(pid));
  } catch {
    return []; // ps exits 1 when none is left
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

// Both at once: each waits mostly for the stack to start.
describe.concurrent('npm run dev stops promptly', () => {
  it.for([
    { signal: 'SIGTERM', to: 'npm' },
    { signal: 'SIGINT', to: 'node' },
  ] as const)(
    'stops everything, Java included, within seconds of $signal sent to the $to process',
    { timeout: 150_000 },
    async ({ signal, to }, { expect, onTestFinished, skip }) => {
      if (!hasJava) skip('Java 17+ is missing (apt-get install openjdk-17-jre-headless)');
      // Prepare: the real script, without tokens that would switch it to Socket Mode
      const env = { ...process.env, SLACK_BOT_TOKEN: '', SLACK_APP_TOKEN: '' };
      const npm = spawn('npm', ['run', 'dev'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const root = npm.pid;
      if (root === undefined) throw new Error('npm did not start');
      let started: number[] = [];
      // Whatever the test left running, by pid: only what it started.
      onTestFinished(() => {
        const pids = new Set([...started, ...processTree(root).map(({ pid }) => pid)]);
        for (const pid of running([...pids])) process.kill(pid, 'SIGKILL');
      });
      let output = '';
      npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((resolve) => npm.once('exit', resolve));
      // Bounded generously: on a busy machine the stack can take long to start.
      const ready = await waitFor(() => output.includes('<- open this'), 120_000);
      expect(ready, `no ready line from npm run dev:\n${output}`).toBe(true);
      const tree = processTree(root);
      started = tree.map(({ pid }) => pid);
      const java = tree.find(({ command }) => command.startsWith('java '));
      const node = tree.find(
        ({ command }) => command.startsWith('node') && command.includes('local/dev.ts'),
      );
      if (!java || !node) throw new Error(`no Java or node under npm run dev: ${JSON.stringify(tree)}`);

      // Act
      const sent = performance.now();
      process.kill(to === 'npm' ? root : node.pid, signal);

      // Assess
      const stopped = await waitFor(() => running(started).length === 0, 5_000);
      const tookMs = Math.round(performance.now() - sent);
      expect(stopped, `still running ${tookMs} ms after ${signal}: ${JSON.stringify(running(started))}`).toBe(
        true,
      );
      await exited;
      console.info(`npm run dev gone ${tookMs} ms after ${signal} to ${to}`);
    },
  );
});
