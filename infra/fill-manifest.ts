import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The request URL placeholder in `manifests/manifest.json`. */
export const URL_PLACEHOLDER = 'https://REPLACE_WITH_SlackRequestUrl_OUTPUT/slack/events';
/**
 * The OAuth redirect URL placeholder (`oauth_config.redirect_urls`): filled with this path on the
 * request URL's host, where Bolt answers it in distribution mode. The path must equal
 * `OAUTH_PATHS.redirect` in the app (a test checks).
 */
export const OAUTH_REDIRECT_PATH = 'slack/oauth_redirect';
export const REDIRECT_URL_PLACEHOLDER = `https://REPLACE_WITH_SlackRequestUrl_OUTPUT/${OAUTH_REDIRECT_PATH}`;
/** Must equal `OUTPUTS.slackRequestUrl` in the stack (a test checks), kept literal so this script stays light. */
export const REQUEST_URL_OUTPUT = 'SlackRequestUrl';

const USAGE = `Writes a copy of the Slack app manifest with the deployed request URL (and the OAuth
redirect URL on its host) filled in.

  npx tsx infra/fill-manifest.ts [--outputs cdk.out/outputs.json] [--stack Eventbot]
  npx tsx infra/fill-manifest.ts --url https://xxxx.lambda-url.eu-west-1.on.aws/slack/events

  --outputs   the file written by \`npx cdk deploy --outputs-file ...\` (default cdk.out/outputs.json)
  --stack     which stack's output to use, when the file holds several
  --url       the URL itself (the SlackRequestUrl output), instead of an outputs file
  --token-rotation  turn on Slack's token rotation (bot tokens expire every 12 hours and are
              refreshed with the client secret): distribution only, and Slack cannot turn it off again
  --unfurl-domains  the domains whose event links unfurl, comma-separated: set it to the stack's
              UNFURL_DOMAINS when that is not the default (app.lensmor.com)
  --manifest  the manifest to fill (default manifests/manifest.json)
  --out       where to write it (default cdk.out/slack-manifest.json, git-ignored)`;

/** Picks the Slack request URL out of a `--outputs-file` document (`{stack: {output: value}}`). */
export function requestUrlFromOutputs(outputs: unknown, stack?: string): string {
  if (!isRecord(outputs)) throw new Error('The outputs file is not a JSON object.');
  const candidates = Object.entries(outputs).filter(
    ([name, values]) =>
      (stack === undefined || name === stack) &&
      isRecord(values) &&
      typeof values[REQUEST_URL_OUTPUT] === 'string',
  );
  if (candidates.length === 0) {
    throw new Error(`No ${stack ?? 'stack'} with a ${REQUEST_URL_OUTPUT} output in the outputs file.`);
  }
  if (candidates.length > 1) {
    throw new Error(`Several stacks have ${REQUEST_URL_OUTPUT}: pick one with --stack.`);
  }
  const [, values] = candidates[0] as [string, Record<string, string>];
  return values[REQUEST_URL_OUTPUT] as string;
}

/**
 * A copy of `manifest` with every occurrence of the placeholder replaced by `url`, and of the
 * redirect URL placeholder by the OAuth redirect URL on the same host.
 */
export function fillManifest(manifest: unknown, url: string): unknown {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw new Error(`Slack needs an https request URL, got ${url}`);
  const redirectUrl = new URL(`/${OAUTH_REDIRECT_PATH}`, parsed).href;
  let replaced = 0;
  const walk = (value: unknown): unknown => {
    if (value === URL_PLACEHOLDER) {
      replaced++;
      return url;
    }
    if (value === REDIRECT_URL_PLACEHOLDER) return redirectUrl;
    if (Array.isArray(value)) return value.map(walk);
    if (isRecord(value))
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  const filled = walk(manifest);
  if (replaced === 0) throw new Error(`The manifest has no ${URL_PLACEHOLDER} to replace.`);
  return filled;
}

/** Slack's pattern for an unfurl domain (from its app-manifest schema); it allows at most 5. */
const UNFURL_DOMAIN = /^(?![.-])([-a-z0-9.])+([a-z0-9])$/;

/**
 * A copy of `manifest` whose `features.unfurl_domains` are `domains` (comma-separated, as in
 * `UNFURL_DOMAINS`): Slack sends `link_shared` only for the domains the manifest names.
 */
export function withUnfurlDomains(manifest: unknown, domains: string): unknown {
  const list = domains
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.find((domain) => !UNFURL_DOMAIN.test(domain) || domain.length > 255);
  if (bad !== undefined) throw new Error(`Not a domain Slack can unfurl: ${bad}`);
  if (list.length < 1 || list.length > 5) throw new Error('Slack takes 1 to 5 unfurl domains.');
  if (!isRecord(manifest) || !isRecord(manifest.features))
    throw new Error('The manifest has no features to add unfurl domains to.');
  return { ...manifest, features: { ...manifest.features, unfurl_domains: [...new Set(list)] } };
}

/**
 * A copy of `manifest` with `settings.token_rotation_enabled` on. Off in the committed manifests:
 * one workspace runs on the bot token put in the secret, which would expire after 12 hours, and
 * Slack cannot turn rotation off once an app has it.
 */
export function withTokenRotation(manifest: unknown): unknown {
  if (!isRecord(manifest) || !isRecord(manifest.settings))
    throw new Error('The manifest has no settings to turn token rotation on in.');
  return { ...manifest, settings: { ...manifest.settings, token_rotation_enabled: true } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function main(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: {
      outputs: { type: 'string', default: 'cdk.out/outputs.json' },
      stack: { type: 'string' },
      url: { type: 'string' },
      'unfurl-domains': { type: 'string' },
      'token-rotation': { type: 'boolean', default: false },
      manifest: { type: 'string', default: 'manifests/manifest.json' },
      out: { type: 'string', default: 'cdk.out/slack-manifest.json' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const url = values.url ?? requestUrlFromOutputs(readJson(values.outputs), values.stack);
  const domains = values['unfurl-domains'];
  const read = readJson(values.manifest);
  const manifest = values['token-rotation'] ? withTokenRotation(read) : read;
  const filled = fillManifest(domains ? withUnfurlDomains(manifest, domains) : manifest, url);
  const out = resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(filled, null, 2)}\n`);
  console.log(`Wrote ${out} with request URL ${url}`);
  console.log(
    'Create the app at https://api.slack.com/apps → Create New App → From a manifest, and paste it.',
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    console.error(`\n${USAGE}`);
    process.exitCode = 1;
  }
}
