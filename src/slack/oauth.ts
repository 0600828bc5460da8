import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import {
  type CallbackOptions,
  type CodedError,
  ErrorCode as OAuthErrorCode,
  type InstallationStore,
  InstallProvider,
  type InstallURLOptions,
  type StateStore,
} from '@slack/oauth';
import { ErrorCode as WebApiErrorCode } from '@slack/web-api';
import manifest from '../../manifests/manifest.json' with { type: 'json' };
import type { Logger } from '../platform/log.ts';
import { boltLogger } from './bolt-logger.ts';
import type { SlackHttpEvent, SlackHttpResult, SlackPages } from './http-boundary.ts';
import { OAUTH_PATHS } from './oauth-paths.ts';
import { webClientOptions } from './web-client.ts';

/**
 * "Add to Slack" for a distributed app (issue 15): `GET /slack/install` shows the page whose button
 * goes to Slack's authorize URL with a one-use state (also set as a cookie, so the browser that
 * started the install is the one that finishes it); `GET /slack/oauth_redirect` checks the state,
 * exchanges the code with `oauth.v2.access` and stores the installation. `@slack/oauth`'s
 * InstallProvider does all of it; this file only carries a Function URL event to it and back, and
 * words the pages of an install that did not finish (`installFailurePage`).
 */

/** The bot scopes an install asks for: the manifest's, so the two never differ. */
export const BOT_SCOPES: readonly string[] = manifest.oauth_config.scopes.bot;

export interface OAuthSettings {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
}

export interface OAuthRoutesOptions extends OAuthSettings {
  installationStore: InstallationStore;
  stateStore: StateStore;
  /** Slack's Web API base (the fake Slack's in tests and `npm run dev`); its authorize page sits beside it. */
  slackApiUrl?: string;
  logger: Logger;
}

/** The two OAuth pages, or `undefined` for any other request (it goes on to Bolt). */
export function oauthRoutes(options: OAuthRoutesOptions): SlackPages {
  const installer = new InstallProvider({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    stateSecret: options.stateSecret,
    stateStore: options.stateStore,
    installationStore: options.installationStore,
    logger: boltLogger(options.logger),
    clientOptions: webClientOptions(options.slackApiUrl),
    ...(options.slackApiUrl ? { authorizationUrl: authorizeUrlBeside(options.slackApiUrl) } : {}),
  });
  return async (event) => {
    const path = 'rawPath' in event ? event.rawPath : event.path;
    if (path !== OAUTH_PATHS.install && path !== OAUTH_PATHS.redirect) return undefined;
    const { req, res, result } = nodeHttpOf(event);
    const installOptions: InstallURLOptions = {
      scopes: [...BOT_SCOPES],
      redirectUri: `${originOf(req)}${OAUTH_PATHS.redirect}`,
    };
    if (path === OAUTH_PATHS.install) await installer.handleInstallPath(req, res, {}, installOptions);
    else await installer.handleCallback(req, res, failureCallback(options.logger), installOptions);
    return result();
  };
}

const CANCELLED = { status: 403, headline: 'You cancelled the install.' };
const REFUSED = { status: 400, headline: 'Slack refused this install link: start again.' };
const EXPIRED = { status: 400, headline: 'This install link has expired or was already used: start again.' };
const NOT_NOW = {
  status: 503,
  headline: 'The install could not be finished just now: please try again in a minute.',
};

/** Each way an install stops, by the library's error code. */
const FAILURE_PAGES: Record<string, { status: number; headline: string }> = {
  [OAuthErrorCode.AuthorizationError]: CANCELLED, // `error=access_denied`: the person said no on Slack's page
  [OAuthErrorCode.MissingCodeError]: REFUSED, // Slack sent back another error instead of a code
  [WebApiErrorCode.PlatformError]: REFUSED, // oauth.v2.access refused the code
  [OAuthErrorCode.MissingStateError]: EXPIRED,
  [OAuthErrorCode.InvalidStateError]: EXPIRED,
};

/** Why an install did not finish, in the installer's words, and the HTTP status that says so. */
export const installFailurePage = (error: CodedError) => FAILURE_PAGES[error.code] ?? NOT_NOW;

/** Answers a redirect that did not install with a plain page (nothing was stored) and one log line. */
function failureCallback(logger: Logger): CallbackOptions {
  return {
    failure: (error, _options, _req, res) => {
      const { status, headline } = installFailurePage(error);
      // The code only: Slack's error objects may hold the request, and with it the client secret.
      const fields = { reason: error.code, status };
      if (status >= 500) logger.error('the app was not installed', fields);
      else logger.info('the app was not installed', fields);
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(failureHtml(headline));
    },
  };
}

function failureHtml(headline: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>The app was not installed</title></head>
<body>
<h1>${headline}</h1>
<p>Nothing was installed.</p>
<p><a href="${OAUTH_PATHS.install}">Add to Slack</a></p>
</body>
</html>`;
}

/** `https://slack.com/api/` → `https://slack.com/oauth/v2/authorize`. */
function authorizeUrlBeside(slackApiUrl: string): string {
  return new URL(
    '../oauth/v2/authorize',
    new URL(slackApiUrl.endsWith('/') ? slackApiUrl : `${slackApiUrl}/`),
  ).href;
}

/** The public origin the request came to (Function URLs are HTTPS; local runs are plain HTTP). */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host ?? 'localhost';
  const local = /^(localhost|127\.0\.0\.1)(:\d+)?$/.test(host);
  return `${local ? 'http' : 'https'}://${host}`;
}

/**
 * The Node request and response InstallProvider reads and writes, made from a Function URL event
 * (its cookies arrive apart from the headers), and the Lambda result made from what it wrote.
 */
function nodeHttpOf(event: SlackHttpEvent) {
  const req = new IncomingMessage(new Socket());
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value ?? '')]),
  );
  const cookies = 'cookies' in event && event.cookies ? event.cookies.join('; ') : undefined;
  req.headers = cookies ? { ...headers, cookie: cookies } : headers;
  req.method = 'GET';
  const query = 'rawQueryString' in event ? event.rawQueryString : '';
  req.url = `${'rawPath' in event ? event.rawPath : event.path}${query ? `?${query}` : ''}`;
  const res = new ServerResponse(req);
  let body = '';
  const end = res.end.bind(res);
  // InstallProvider ends every answer with one string (or nothing): keep it for the Lambda result.
  res.end = ((chunk?: unknown) => {
    if (typeof chunk === 'string') body += chunk;
    return end();
  }) as ServerResponse['end'];
  const result = (): SlackHttpResult & { cookies?: string[] } => {
    const out: Record<string, string> = {};
    let setCookies: string[] = [];
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (value === undefined) continue;
      if (name === 'set-cookie') setCookies = Array.isArray(value) ? value : [String(value)];
      else out[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return {
      statusCode: res.statusCode,
      headers: out,
      body,
      ...(setCookies.length ? { cookies: setCookies } : {}),
    };
  };
  return { req, res, result };
}
