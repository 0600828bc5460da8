import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUTS, SLACK_EVENTS_PATH } from '../../infra/eventbot-stack.ts';
import { OAUTH_PATHS } from '../../src/slack/oauth-paths.ts';
import {
  fillManifest,
  OAUTH_REDIRECT_PATH,
  REDIRECT_URL_PLACEHOLDER,
  REQUEST_URL_OUTPUT,
  requestUrlFromOutputs,
  URL_PLACEHOLDER,
  withTokenRotation,
  withUnfurlDomains,
} from '../../infra/fill-manifest.ts';
import { readEnv } from '../../src/platform/config/env.ts';
import { EVENT_FIT_SCORE_STEP } from '../../src/slack/features/workflow-step/listeners.ts';

/** The parts of a Slack app manifest these tests read; the tests check the values. */
const ManifestSchema = z.looseObject({
  _metadata: z.looseObject({ major_version: z.unknown() }),
  oauth_config: z.looseObject({ scopes: z.unknown(), redirect_urls: z.array(z.string()).optional() }),
  features: z.looseObject({
    app_home: z.unknown(),
    bot_user: z.looseObject({ display_name: z.unknown() }),
    shortcuts: z.array(z.looseObject({ type: z.unknown(), callback_id: z.unknown() })),
    slash_commands: z.array(z.looseObject({ url: z.unknown().optional() })),
    unfurl_domains: z.array(z.string()),
  }),
  settings: z.looseObject({
    event_subscriptions: z.looseObject({ request_url: z.unknown().optional(), bot_events: z.unknown() }),
    interactivity: z.looseObject({ is_enabled: z.unknown(), request_url: z.unknown().optional() }),
    socket_mode_enabled: z.unknown(),
    org_deploy_enabled: z.unknown(),
    token_rotation_enabled: z.unknown(),
    function_runtime: z.unknown(),
  }),
  functions: z.record(
    z.string(),
    z.looseObject({ input_parameters: z.record(z.string(), z.unknown()), output_parameters: z.unknown() }),
  ),
});

/** Slack's published app-manifest schema (major version 1), vendored: see test/data/slack-manifest-schema. */
const SCHEMA_PATH = 'test/data/slack-manifest-schema/manifest.schema.1.0.0.json';
const SCHEMA_SHA256 = 'f2adf9f9800230e2fe44bab0762796492871edaab817e9160fdcdf0eb4642e58';
// ajv-formats is CommonJS: its function is the default export under Node, `.default` of it under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** Slack's schema, checked against its recorded hash, compiled with its two annotations allowed. */
function manifestValidator() {
  const schemaText = readFileSync(SCHEMA_PATH, 'utf8');
  expect(createHash('sha256').update(schemaText).digest('hex')).toBe(SCHEMA_SHA256);
  const ajv = addFormats(new Ajv({ allErrors: true, strictTypes: false }));
  // Slack's schema carries two annotations of its own: `_note`, and `regex` on background_color
  // (not a JSON Schema keyword, so not enforced by Slack's own validators either).
  ajv.addKeyword({ keyword: '_note' });
  ajv.addKeyword({ keyword: 'regex', schemaType: 'string' });
  return ajv.compile(JSON.parse(schemaText) as object);
}

const run = promisify(execFile);
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const readManifest = (path: string) => ManifestSchema.parse(readJson(path));
const manifest = readManifest('manifests/manifest.json');
const socketMode = readManifest('manifests/manifest.socket-mode.json');
const deployedUrl = `https://abc123.lambda-url.eu-west-1.on.aws/${SLACK_EVENTS_PATH}`;

describe('the Slack app manifest', () => {
  it('asks for the minimal bot scopes: commands, chat:write, users:read (time zones, admins), usergroups:read (approver groups), channels:read and groups:read (whose Home lists a channel’s digest), links:read/write (unfurls), files:write (CSV exports), canvases:write (the channel’s plan)', () => {
    for (const app of [manifest, socketMode]) {
      expect(app.oauth_config.scopes).toEqual({
        bot: [
          'commands',
          'chat:write',
          'users:read',
          'usergroups:read',
          'channels:read',
          'groups:read',
          'links:read',
          'links:write',
          'files:write',
          'canvases:write',
        ],
      });
    }
  });

  it("is valid against Slack's published app-manifest schema, both for HTTP and Socket Mode", () => {
    const validate = manifestValidator();
    for (const path of ['manifests/manifest.json', 'manifests/manifest.socket-mode.json']) {
      const valid = validate(readJson(path));
      expect({ path, errors: validate.errors ?? [] }).toEqual({ path, errors: [] });
      expect(valid).toBe(true);
    }
    expect(manifest._metadata.major_version).toBe(1);
    expect(socketMode._metadata.major_version).toBe(1);
    // The schema does reject what Slack would: a shortcut name over 24 characters.
    const tooLong = structuredClone(readJson('manifests/manifest.json')) as {
      features: { shortcuts: { name: string }[] };
    };
    const [shortcut] = tooLong.features.shortcuts;
    if (shortcut) shortcut.name = 'Search every trade show ever';
    expect(validate(tooLong)).toBe(false);
  });

  it('subscribes to the Home tab, link and workflow-step events, with the Home and Messages tabs on', () => {
    for (const app of [manifest, socketMode]) {
      expect(app.settings.event_subscriptions.bot_events).toEqual([
        'app_home_opened',
        'link_shared',
        'function_executed',
      ]);
      expect(app.features.app_home).toMatchObject({ home_tab_enabled: true, messages_tab_enabled: true });
    }
  });

  it('offers the shortcuts the bot answers: search_events from anywhere, research_company and log_for_show on a message', () => {
    for (const app of [manifest, socketMode]) {
      expect(app.features.shortcuts.map(({ type, callback_id }) => [type, callback_id])).toEqual([
        ['global', 'search_events'],
        ['message', 'research_company'],
        ['message', 'log_for_show'],
      ]);
    }
  });

  it('unfurls the domains the bot reads links of by default (UNFURL_DOMAINS)', () => {
    const { UNFURL_DOMAINS } = readEnv({ TABLE_NAME: 't', EIS_BASE_URL: 'https://platform.lensmor.com' });
    for (const app of [manifest, socketMode]) expect(app.features.unfurl_domains).toEqual(UNFURL_DOMAINS);
  });

  it('declares the "Event fit score" step the bot listens for, as a remote function of an org-ready app', () => {
    for (const app of [manifest, socketMode]) {
      expect(Object.keys(app.functions)).toEqual([EVENT_FIT_SCORE_STEP]);
      const step = app.functions[EVENT_FIT_SCORE_STEP];
      expect(Object.keys(step?.input_parameters ?? {})).toEqual(['event_id']);
      expect(Object.keys(step?.output_parameters ?? {})).toEqual([
        'event_name',
        'score',
        'band',
        'start_date',
      ]);
      // Slack's requirements for a Bolt app's custom step: org-ready, running on the app's own server.
      expect(app.settings.org_deploy_enabled).toBe(true);
      expect(app.settings.function_runtime).toBe('remote');
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

  it('points the command, interactivity and events at the request URL placeholder, over HTTP', () => {
    expect(URL_PLACEHOLDER.endsWith(`/${SLACK_EVENTS_PATH}`)).toBe(true);
    expect(manifest.features.slash_commands[0]?.url).toBe(URL_PLACEHOLDER);
    expect(manifest.settings.interactivity.request_url).toBe(URL_PLACEHOLDER);
    expect(manifest.settings.event_subscriptions.request_url).toBe(URL_PLACEHOLDER);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('sends OAuth back to the redirect URL placeholder on the request URL host, for distribution', () => {
    expect(`/${OAUTH_REDIRECT_PATH}`).toBe(OAUTH_PATHS.redirect);
    expect(REDIRECT_URL_PLACEHOLDER).toBe(URL_PLACEHOLDER.replace(SLACK_EVENTS_PATH, OAUTH_REDIRECT_PATH));
    expect(manifest.oauth_config.redirect_urls).toEqual([REDIRECT_URL_PLACEHOLDER]);
    // Org-wide installs (Enterprise Grid) are on already, for the workflow step.
    expect(manifest.settings.org_deploy_enabled).toBe(true);
  });

  it('keeps token rotation off: a single workspace runs on the bot token in the secret, which would expire', () => {
    for (const app of [manifest, socketMode]) expect(app.settings.token_rotation_enabled).toBe(false);
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

  it('replaces every placeholder and leaves the original untouched', () => {
    const filled = ManifestSchema.parse(fillManifest(manifest, deployedUrl));
    expect(filled.features.slash_commands[0]?.url).toBe(deployedUrl);
    expect(filled.settings.interactivity.request_url).toBe(deployedUrl);
    expect(filled.settings.event_subscriptions.request_url).toBe(deployedUrl);
    expect(filled.oauth_config.redirect_urls).toEqual([
      'https://abc123.lambda-url.eu-west-1.on.aws/slack/oauth_redirect',
    ]);
    expect(JSON.stringify(filled)).not.toContain('REPLACE_WITH');
    expect(manifest.settings.interactivity.request_url).toBe(URL_PLACEHOLDER);
  });

  it('refuses a URL Slack would not accept, and a manifest without the placeholder', () => {
    expect(() => fillManifest(manifest, 'http://insecure.example/slack/events')).toThrow(/https/);
    expect(() => fillManifest(socketMode, deployedUrl)).toThrow(/no https:\/\/REPLACE/);
  });

  it('sets the unfurl domains to a configured UNFURL_DOMAINS, refusing what Slack would', () => {
    const filled = ManifestSchema.parse(withUnfurlDomains(manifest, ' Events.Example.org, app.lensmor.com '));
    expect(filled.features.unfurl_domains).toEqual(['events.example.org', 'app.lensmor.com']);
    expect(manifest.features.unfurl_domains).toEqual(['app.lensmor.com']);
    expect(() => withUnfurlDomains(manifest, 'https://app.lensmor.com')).toThrow(/Not a domain/);
    expect(() => withUnfurlDomains(manifest, 'a.com,b.com,c.com,d.com,e.com,f.com')).toThrow(/1 to 5/);
  });

  it('turns token rotation on when asked (distribution), still a valid manifest', () => {
    const rotated = ManifestSchema.parse(withTokenRotation(fillManifest(manifest, deployedUrl)));
    expect(rotated.settings.token_rotation_enabled).toBe(true);
    expect(manifest.settings.token_rotation_enabled).toBe(false);
    const validate = manifestValidator();
    expect(validate(rotated), JSON.stringify(validate.errors)).toBe(true);
    expect(() => withTokenRotation({})).toThrow(/no settings/);
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
      expect(readManifest(out).settings.token_rotation_enabled).toBe(false);

      await run(process.execPath, [...script, '--token-rotation']);
      const rotated = readManifest(out);
      expect(rotated.settings.token_rotation_enabled).toBe(true);
      expect(rotated.oauth_config.redirect_urls).toEqual([
        'https://abc123.lambda-url.eu-west-1.on.aws/slack/oauth_redirect',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
