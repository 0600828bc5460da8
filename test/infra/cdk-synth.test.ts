import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordAt } from './support/template.ts';

/** The environment of a CI runner with no AWS account: no AWS_* or CDK_DEFAULT_*, no ~/.aws. */
function offlineEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('AWS_') && !key.startsWith('CDK_DEFAULT_')),
  );
  return { ...env, HOME: home, CDK_DISABLE_VERSION_CHECK: '1' };
}

function runCli(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('npx', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npx cdk synth', () => {
  it(
    'synthesizes offline with no AWS credentials, no notices and no telemetry',
    {
      timeout: 120_000,
    },
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'eventbot-home-'));
      const work = mkdtempSync(join(tmpdir(), 'eventbot-synth-'));
      try {
        const cdkOut = join(work, 'cdk.out');
        const { code, output } = await runCli(
          ['cdk', 'synth', '--quiet', '--output', cdkOut],
          offlineEnv(home),
        );
        expect(code, output).toBe(0);
        const template = join(cdkOut, 'Eventbot.template.json');
        expect(existsSync(template)).toBe(true);
        const resources = recordAt(JSON.parse(readFileSync(template, 'utf8')), 'Resources');
        expect(Object.keys(resources).length).toBeGreaterThan(10);
        expect(output).not.toMatch(/NOTICES|telemetry/i);
      } finally {
        rmSync(work, { recursive: true, force: true });
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
