import { randomBytes } from 'node:crypto';

/**
 * The fake Slack's side of installing an app (OAuth v2): the consent step that hands out a
 * one-use code (`GET /oauth/v2/authorize`, or `oauth.authorize(install)` in a test) or, when the
 * person cancels, redirects back with `error=access_denied`, and
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
  /** Whether a refresh token is one the fake issued and nobody has used yet. */
  isUnusedRefreshToken(token: string): boolean;
  /** Token rotation from now on: bot tokens issued (at install or refresh) last this many seconds. */
  setTokenLifetime(seconds: number): void;
}

/**
 * The app is removed from a workspace (or, `orgWide`, from its whole Enterprise Grid org): the tokens
 * of that install stop being live, as Slack revokes them, so its workspaces are no longer served by it.
 */
export function revokeInstall(
  oauth: OAuthState,
  { teamId, orgWide = false }: { teamId: string; orgWide?: boolean },
): void {
  const enterpriseId = oauth.enterpriseOfTeam.get(teamId);
  const removed = (install: FakeInstall) =>
    orgWide
      ? install.isEnterpriseInstall === true && install.enterpriseId === enterpriseId
      : install.isEnterpriseInstall !== true && install.teamId === teamId;
  for (const issued of [oauth.tokens, oauth.refreshTokens])
    for (const [token, install] of issued) if (removed(install)) issued.delete(token);
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
  /** The Enterprise Grid org of each workspace that belongs to one: its own installs name the org. */
  enterpriseOfTeam: Map<string, string>;
}

export function createOAuthState(
  options: FakeOAuthOptions = {},
  botUserId = 'UBOT',
  enterprises: Record<string, string[]> = {},
): OAuthState {
  return {
    enterpriseOfTeam: new Map(
      Object.entries(enterprises).flatMap(([id, teams]) => teams.map((team) => [team, id] as const)),
    ),
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
    isUnusedRefreshToken: (token) => oauth.refreshTokens.has(token),
    setTokenLifetime: (seconds) => {
      oauth.tokenLifetimeSeconds = seconds;
    },
  };
}

function issueCode(oauth: OAuthState, install: FakeInstall): string {
  const code = `code-${random()}`;
  oauth.codes.set(code, install);
  return code;
}

/**
 * `GET /oauth/v2/authorize`: the installer (`user`, else U0ALICE) approves at once for the team the
 * URL names with `team` (else `T0LOCAL`), or cancels (`cancel=1`); the answer is the redirect back
 * to the app with `code` (or `error=access_denied`) and `state`.
 */
export function authorizeRedirect(oauth: OAuthState, url: URL): { status: number; location?: string } {
  const params = url.searchParams;
  if (params.get('client_id') !== oauth.clientId) return { status: 400 };
  const redirectUri = params.get('redirect_uri') ?? oauth.redirectUri;
  if (!redirectUri) return { status: 400 };
  const teamId = params.get('team') ?? oauth.nextInstallTeam ?? 'T0LOCAL';
  oauth.nextInstallTeam = undefined;
  const location = new URL(redirectUri);
  if (params.get('cancel')) location.searchParams.set('error', 'access_denied');
  else location.searchParams.set('code', issueCode(oauth, consentOf(oauth, teamId, params)));
  const state = params.get('state');
  if (state) location.searchParams.set('state', state);
  return { status: 302, location: location.toString() };
}

/** What the consent approves: the team's own install (naming its org, if any), or an org-wide one. */
function consentOf(oauth: OAuthState, teamId: string, params: URLSearchParams): FakeInstall {
  const scope = params.get('scope');
  const user = params.get('user');
  // `enterprise`: the installer is an org admin who approves for the whole Enterprise Grid org.
  const orgWide = params.get('enterprise');
  const org = orgWide ?? oauth.enterpriseOfTeam.get(teamId);
  return {
    teamId,
    ...(org ? { enterpriseId: org } : {}),
    ...(orgWide ? { isEnterpriseInstall: true } : {}),
    ...(user ? { userId: user } : {}),
    ...(scope ? { scopes: scope.split(',') } : {}),
  };
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

/**
 * Whether a workspace of the enterprise is served by an org-wide install (a token was issued for one)
 * rather than its own (a token was issued for the workspace's own install).
 */
export function servedOrgWide(oauth: OAuthState, enterpriseId: string, teamId: string): boolean {
  const installs = [...oauth.tokens.values()];
  const own = installs.some((install) => install.isEnterpriseInstall !== true && install.teamId === teamId);
  return (
    !own &&
    installs.some((install) => install.isEnterpriseInstall === true && install.enterpriseId === enterpriseId)
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

export interface InstallInBrowser {
  installUrl: string;
  teamId: string;
  /** An org admin installs for the whole Enterprise Grid org. */
  orgWide?: { enterpriseId: string };
  /** Who installs (U0ALICE unless named). */
  userId?: string;
  /** `cancel`: the person cancels on Slack's consent page; `forged-code`: the code comes back altered. */
  consent?: 'approve' | 'cancel' | 'forged-code';
}

/**
 * Someone of `teamId` installs the app as a browser would: the app's install page (its state cookie
 * kept), Slack's consent for that team (or, with `orgWide`, for the whole Enterprise Grid org), the
 * redirect back. Returns the redirect's status and page.
 */
export async function installPage({ installUrl, teamId, orgWide, userId, consent }: InstallInBrowser) {
  const page = await fetch(installUrl, { redirect: 'manual' });
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const html = await page.text();
  const href = /href="([^"]*oauth\/v2\/authorize[^"]*)"/.exec(html)?.[1];
  if (!href) throw new Error(`no "Add to Slack" link on the install page (HTTP ${page.status})`);
  const authorize = new URL(href.replaceAll('&amp;', '&'));
  authorize.searchParams.set('team', teamId);
  if (orgWide) authorize.searchParams.set('enterprise', orgWide.enterpriseId);
  if (userId) authorize.searchParams.set('user', userId);
  if (consent === 'cancel') authorize.searchParams.set('cancel', '1');
  const back = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location') ?? '');
  if (consent === 'forged-code') back.searchParams.set('code', 'code-forged');
  const done = await fetch(back, { headers: { cookie } });
  return { status: done.status, body: await done.text() };
}

/** `installPage`, for the redirect's status only. */
export async function installApp(install: InstallInBrowser): Promise<number> {
  return (await installPage(install)).status;
}
