import { randomBytes } from 'node:crypto';

/**
 * The fake Slack's side of installing an app (OAuth v2): the consent step that hands out a
 * one-use code (`GET /oauth/v2/authorize`, or `oauth.authorize(install)` in a test), and
 * `oauth.v2.access` for both grants: `authorization_code` answers the install with a bot token
 * (with `expires_in` and a refresh token when the install rotates tokens), `refresh_token` trades a
 * refresh token (once) for a new token and refresh token, and counts it. Tokens it issued make
 * `auth.test` answer their own team.
 */

type Args = Record<string, unknown>;

export interface FakeOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** Where the consent step redirects when the authorize URL names no `redirect_uri`. */
  redirectUri?: string;
  /** The app has token rotation on: bot tokens last this many seconds (unless an install says otherwise). */
  tokenLifetimeSeconds?: number;
}

/** What the installer approves: a workspace (or, org-wide, an enterprise) and the bot's grant. */
export interface FakeInstall {
  teamId: string;
  teamName?: string;
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
  /** The installing user. */
  userId?: string;
  scopes?: string[];
  /** Token rotation: bot tokens last this many seconds and come with a refresh token. */
  expiresInSeconds?: number;
}

export interface FakeSlackOAuth {
  clientId: string;
  clientSecret: string;
  /** The installer approves `install`: a one-use code for `oauth.v2.access`. */
  authorize(install: FakeInstall): string;
  /** How many `oauth.v2.access` refreshes (grant_type=refresh_token) succeeded. */
  refreshCount(): number;
  /** Whether a bot token is one the fake issued (and so is live). */
  isIssued(token: string): boolean;
}

export interface OAuthState {
  clientId: string;
  clientSecret: string;
  redirectUri: string | undefined;
  tokenLifetimeSeconds: number | undefined;
  botUserId: string;
  codes: Map<string, FakeInstall>;
  /** Every bot token issued, with its install (Slack keeps an old token valid until it expires). */
  tokens: Map<string, FakeInstall>;
  /** Refresh tokens not yet used. */
  refreshTokens: Map<string, FakeInstall>;
  refreshes: number;
  /** The team the next consent (from the page's Install link) is for, when its URL names none. */
  nextInstallTeam: string | undefined;
}

export function createOAuthState(options: FakeOAuthOptions = {}, botUserId = 'UBOT'): OAuthState {
  return {
    clientId: options.clientId ?? 'local-client-id',
    clientSecret: options.clientSecret ?? 'local-client-secret',
    redirectUri: options.redirectUri,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds,
    botUserId,
    codes: new Map(),
    tokens: new Map(),
    refreshTokens: new Map(),
    refreshes: 0,
    nextInstallTeam: undefined,
  };
}

const random = () => randomBytes(12).toString('hex');

export function fakeSlackOAuth(oauth: OAuthState): FakeSlackOAuth {
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    authorize: (install) => issueCode(oauth, install),
    refreshCount: () => oauth.refreshes,
    isIssued: (token) => oauth.tokens.has(token),
  };
}

function issueCode(oauth: OAuthState, install: FakeInstall): string {
  const code = `code-${random()}`;
  oauth.codes.set(code, install);
  return code;
}

/**
 * `GET /oauth/v2/authorize`: the installer approves at once (for the team the URL names with
 * `team`, else `T0LOCAL`); the answer is the redirect back to the app with `code` and `state`.
 */
export function authorizeRedirect(oauth: OAuthState, url: URL): { status: number; location?: string } {
  const params = url.searchParams;
  if (params.get('client_id') !== oauth.clientId) return { status: 400 };
  const redirectUri = params.get('redirect_uri') ?? oauth.redirectUri;
  if (!redirectUri) return { status: 400 };
  const scope = params.get('scope');
  const teamId = params.get('team') ?? oauth.nextInstallTeam ?? 'T0LOCAL';
  oauth.nextInstallTeam = undefined;
  // `enterprise`: the installer is an org admin who approves for the whole Enterprise Grid org.
  const enterpriseId = params.get('enterprise');
  // `user`: who approves (the installing user Slack reports); default U0ALICE.
  const userId = params.get('user');
  const code = issueCode(oauth, {
    teamId,
    ...(userId ? { userId } : {}),
    ...(enterpriseId ? { enterpriseId, isEnterpriseInstall: true } : {}),
    ...(scope ? { scopes: scope.split(',') } : {}),
  });
  const location = new URL(redirectUri);
  location.searchParams.set('code', code);
  const state = params.get('state');
  if (state) location.searchParams.set('state', state);
  return { status: 302, location: location.toString() };
}

/** The `oauth.*` Web API methods; they take the client's credentials instead of a token. */
export function answerOAuth(oauth: OAuthState, method: string, args: Args, authorization?: string): Args {
  if (method !== 'oauth.v2.access') return { ok: false, error: 'unknown_method' };
  const [clientId, clientSecret] = clientCredentials(args, authorization);
  if (clientId !== oauth.clientId) return { ok: false, error: 'invalid_client_id' };
  if (clientSecret !== oauth.clientSecret) return { ok: false, error: 'bad_client_secret' };
  if (args.grant_type === 'refresh_token') return refresh(oauth, args.refresh_token);
  const install = typeof args.code === 'string' ? oauth.codes.get(args.code) : undefined;
  if (!install || typeof args.code !== 'string') return { ok: false, error: 'invalid_code' };
  oauth.codes.delete(args.code);
  return { ok: true, ...installAnswer(oauth, install) };
}

/** Slack takes the client id and secret in the form, or as HTTP Basic auth. */
function clientCredentials(args: Args, authorization: string | undefined): [unknown, unknown] {
  if (authorization?.startsWith('Basic ')) {
    const [id, secret] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
    return [id, secret];
  }
  return [args.client_id, args.client_secret];
}

function issueBotToken(oauth: OAuthState, install: FakeInstall): Args {
  const expiresIn = install.expiresInSeconds ?? oauth.tokenLifetimeSeconds;
  const rotating = expiresIn !== undefined;
  const token = rotating ? `xoxe.xoxb-1-${random()}` : `xoxb-${install.teamId}-${random()}`;
  oauth.tokens.set(token, install);
  if (!rotating) return { access_token: token };
  const refreshToken = `xoxe-1-${random()}`;
  oauth.refreshTokens.set(refreshToken, install);
  return { access_token: token, refresh_token: refreshToken, expires_in: expiresIn };
}

function teamAnswer(install: FakeInstall) {
  const enterprise = install.enterpriseId ? { id: install.enterpriseId, name: install.enterpriseId } : null;
  const org = install.isEnterpriseInstall === true;
  return {
    team: org ? null : { id: install.teamId, name: install.teamName ?? install.teamId },
    enterprise,
    is_enterprise_install: org,
  };
}

function installAnswer(oauth: OAuthState, install: FakeInstall): Args {
  return {
    app_id: 'A0LOCAL',
    authed_user: { id: install.userId ?? 'U0ALICE' },
    scope: (install.scopes ?? ['commands', 'chat:write']).join(','),
    token_type: 'bot',
    bot_user_id: oauth.botUserId,
    ...issueBotToken(oauth, install),
    ...teamAnswer(install),
  };
}

/** A refresh token works once, as a rotated one should be used. */
function refresh(oauth: OAuthState, refreshToken: unknown): Args {
  const install = typeof refreshToken === 'string' ? oauth.refreshTokens.get(refreshToken) : undefined;
  if (!install || typeof refreshToken !== 'string') return { ok: false, error: 'invalid_refresh_token' };
  oauth.refreshTokens.delete(refreshToken);
  oauth.refreshes += 1;
  return {
    ok: true,
    app_id: 'A0LOCAL',
    scope: (install.scopes ?? ['commands', 'chat:write']).join(','),
    token_type: 'bot',
    bot_user_id: oauth.botUserId,
    ...issueBotToken(oauth, install),
    ...teamAnswer(install),
  };
}

/**
 * The team of a bot token the fake issued (its install's); undefined for other tokens, and for an
 * org-wide install's (it serves every workspace of its org).
 */
export function tokenTeam(oauth: OAuthState, authorization: string | undefined): string | undefined {
  const install = oauth.tokens.get(authorization?.replace(/^Bearer /, '') ?? '');
  return install?.isEnterpriseInstall ? undefined : install?.teamId;
}

/** Whether the app is installed org-wide in the enterprise (a token was issued for such an install). */
export function orgWideInstalled(oauth: OAuthState, enterpriseId: string): boolean {
  return [...oauth.tokens.values()].some(
    (install) => install.isEnterpriseInstall === true && install.enterpriseId === enterpriseId,
  );
}

/** What `auth.test` says about the team of a token the fake issued; nothing for other tokens. */
export function tokenIdentity(oauth: OAuthState, authorization: string | undefined): Args {
  const install = oauth.tokens.get(authorization?.replace(/^Bearer /, '') ?? '');
  if (!install) return {};
  return {
    team_id: install.teamId,
    team: install.teamName ?? install.teamId,
    url: `https://${install.teamId.toLowerCase()}.slack.local/`,
    ...(install.enterpriseId ? { enterprise_id: install.enterpriseId } : {}),
    is_enterprise_install: install.isEnterpriseInstall === true,
  };
}

/**
 * An admin of `teamId` (or `userId`, whoever Slack lets add the app) installs the app as a browser
 * would: the app's install page (its state cookie kept), Slack's consent for that team (or, with
 * `orgWide`, for the whole Enterprise Grid org), the redirect back. Returns the redirect's status.
 */
export async function installApp({
  installUrl,
  teamId,
  orgWide,
  userId,
}: {
  installUrl: string;
  teamId: string;
  orgWide?: { enterpriseId: string };
  userId?: string;
}) {
  const page = await fetch(installUrl, { redirect: 'manual' });
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const html = await page.text();
  const href = /href="([^"]*oauth\/v2\/authorize[^"]*)"/.exec(html)?.[1];
  if (!href) throw new Error(`no "Add to Slack" link on the install page (HTTP ${page.status})`);
  const authorize = new URL(href.replaceAll('&amp;', '&'));
  authorize.searchParams.set('team', teamId);
  if (orgWide) authorize.searchParams.set('enterprise', orgWide.enterpriseId);
  if (userId) authorize.searchParams.set('user', userId);
  const consent = await fetch(authorize, { redirect: 'manual' });
  const done = await fetch(consent.headers.get('location') ?? '', { headers: { cookie } });
  return done.status;
}
