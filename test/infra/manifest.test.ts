import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUTS, SLACK_EVENTS_PATH } from '../../infra/eventbot-stack.ts';
import {
  fillManifest,
  REQUEST_URL_OUTPUT,
  requestUrlFromOutputs,
  URL_PLACEHOLDER,
} from '../../infra/fill-manifest.ts';

/** The parts of a Slack app manifest these tests read; the tests check the values. */
const ManifestSchema = z.looseObject({
  oauth_config: z.looseObject({ scopes: z.unknown() }),
  features: z.looseObject({
    bot_user: z.looseObject({ display_name: z.unknown() }),
    slash_commands: z.array(z.looseObject({ url: z.unknown().optional() })),
  }),
  settings: z.looseObject({
    interactivity: z.looseObject({ is_enabled: z.unknown(), request_url: z.unknown().optional() }),
    socket_mode_enabled: z.unknown(),
  }),
});

const run = promisify(execFile);
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const readManifest = (path: string) => ManifestSchema.parse(readJson(path));
const manifest = readManifest('slack/manifest.json');
const socketMode = readManifest('slack/manifest.socket-mode.json');
const deployedUrl = `https://abc123.lambda-url.eu-west-1.on.aws/${SLACK_EVENTS_PATH}`;

describe('the Slack app manifest', () => {
  it('asks for the minimal bot scopes: commands, chat:write, users:read (time zones for digests)', () => {
    for (const app of [manifest, socketMode]) {
      expect(app.oauth_config.scopes).toEqual({ bot: ['commands', 'chat:write', 'users:read'] });
    }
  });

  it('has a bot user and the /events command with a usage hint', () => {
    for (const app of [manifest, socketMode]) {
      expect(app.features.bot_user.display_name).toBeTruthy();
      expect(app.features.slash_commands).toEqual([
        expect.objectContaining({
          command: '/events',
          usage_hint: expect.stringContaining('fit <event_id>') as unknown,
        }),
      ]);
      expect(app.settings.interactivity.is_enabled).toBe(true);
    }
  });

  it('points the command and interactivity at the request URL placeholder, over HTTP', () => {
    expect(URL_PLACEHOLDER.endsWith(`/${SLACK_EVENTS_PATH}`)).toBe(true);
    expect(manifest.features.slash_commands[0]?.url).toBe(URL_PLACEHOLDER);
    expect(manifest.settings.interactivity.request_url).toBe(URL_PLACEHOLDER);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('for Socket Mode, has no URL at all', () => {
    expect(socketMode.settings.socket_mode_enabled).toBe(true);
    expect(JSON.stringify(socketMode)).not.toMatch(/https?:\/\//);
  });
});

describe('fill-manifest', () => {
  it('reads the output the stack defines', () => {
    expect(REQUEST_URL_OUTPUT).toBe(OUTPUTS.slackRequestUrl);
    expect(requestUrlFromOutputs({ Eventbot: { SlackRequestUrl: deployedUrl, TableName: 't' } })).toBe(
      deployedUrl,
    );
  });

  it('asks which stack when several have the output, and names a missing one', () => {
    const outputs = { A: { SlackRequestUrl: deployedUrl }, B: { SlackRequestUrl: 'https://b.example/x' } };
    expect(() => requestUrlFromOutputs(outputs)).toThrow(/--stack/);
    expect(requestUrlFromOutputs(outputs, 'B')).toBe('https://b.example/x');
    expect(() => requestUrlFromOutputs({ Other: {} })).toThrow(/SlackRequestUrl/);
  });

  it('replaces both placeholders and leaves the original untouched', () => {
    const filled = ManifestSchema.parse(fillManifest(manifest, deployedUrl));
    expect(filled.features.slash_commands[0]?.url).toBe(deployedUrl);
    expect(filled.settings.interactivity.request_url).toBe(deployedUrl);
    expect(JSON.stringify(filled)).not.toContain('REPLACE_WITH');
    expect(manifest.settings.interactivity.request_url).toBe(URL_PLACEHOLDER);
  });

  it('refuses a URL Slack would not accept, and a manifest without the placeholder', () => {
    expect(() => fillManifest(manifest, 'http://insecure.example/slack/events')).toThrow(/https/);
    expect(() => fillManifest(socketMode, deployedUrl)).toThrow(/no https:\/\/REPLACE/);
  });

  it('writes the filled copy from a cdk deploy outputs file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventbot-manifest-'));
    try {
      const outputs = join(dir, 'outputs.json');
      writeFileSync(outputs, JSON.stringify({ Eventbot: { SlackRequestUrl: deployedUrl } }));
      const out = join(dir, 'manifest.json');
      const script = ['--import', 'tsx', 'infra/fill-manifest.ts', '--outputs', outputs, '--out', out];
      const { stdout } = await run(process.execPath, script);
      expect(stdout).toContain(deployedUrl);
      expect(readManifest(out).settings.interactivity.request_url).toBe(deployedUrl);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
