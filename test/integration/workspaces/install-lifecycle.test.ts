import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import { visibleText } from '../../support/bot.ts';
import {
  CLIENT_SECRET,
  type DistributedBot,
  startDistributedBot,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';
import { inject } from 'vitest';
import { type DynamoFaultProxy, startDynamoFaultProxy } from '../../support/dynamo-fault-proxy.ts';

const CONNECT = 'open.workspace';
const ownInstall = (teamId: string) => ({ teamId, isEnterpriseInstall: false });

/** The answer `/events <text>` gets in the workspace's channel (the last message after it). */
async function answerTo(bot: DistributedBot, workspace: TestWorkspace, text: string, actor: Actor) {
  await bot.command(text, actor);
  await bot.idle();
  return visibleText(bot.slack.messages(workspace.channel).at(-1) ?? { text: '', blocks: [] });
}

/**
 * Issue 23 (defect 2): installing or reinstalling confers nothing. A plain member who runs "Add to
 * Slack" again replaces the bot's tokens and nothing else: the workspace's key, settings and digests
 * stay, the install still names its first installer, and the settings stay an admin's.
 */
describe('a member reinstalling the app', () => {
  const W = testWorkspace('T0REINST');
  const ADMIN = 'U0ADMINR';
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [W],
      users: {
        [ADMIN]: { name: 'admin', tz: 'UTC', teamId: W.teamId, isAdmin: true },
        [W.member.userId]: { name: 'member', tz: 'UTC', teamId: W.teamId },
      },
    });
  });
  afterAll(() => bot.close());

  it('replaces only the tokens: key, settings and digests stay, and the settings stay an admin’s', async () => {
    expect(await bot.install(W.teamId, undefined, { userId: ADMIN })).toBe(200);
    const key = bot.newKey(9_000);
    await bot.connectKey(W.teamId, key, ADMIN);
    await bot.store.workspaces.putPolicy(W.teamId, { dailyCap: 5_000, approverUserIds: [ADMIN] }, ADMIN);
    await bot.store.digestSubscriptions.put({
      teamId: W.teamId,
      channelId: W.channel,
      time: '08:00',
      timeZone: 'UTC',
      filters: {},
      createdBy: W.member.userId,
      nextRunAt: new Date(Date.now() + 3_600_000),
    });
    const before = {
      installation: await bot.store.installations.fetchInstallation(ownInstall(W.teamId)),
      key: await bot.store.workspaces.getServiceKeyInfo(W.teamId),
      policy: await bot.store.workspaces.getPolicy(W.teamId),
      digest: await bot.store.digestSubscriptions.get(W.teamId, W.channel),
    };

    const status = await bot.install(W.teamId, undefined, { userId: W.member.userId });
    const after = await bot.store.installations.fetchInstallation(ownInstall(W.teamId));
    await bot.slack.openHome(W.member.userId, W.teamId);
    await bot.idle();
    const home = bot.slack.home(W.member.userId);
    if (!home) throw new Error('no Home for the member');
    await bot.slack.clickInView({ user: W.member.userId, viewId: home.id, actionId: CONNECT });
    await bot.idle();
    const settings = JSON.stringify(bot.slack.modal(W.member.userId)?.view.blocks);

    expect(status).toBe(200);
    expect(after.bot?.token).not.toBe(before.installation.bot?.token);
    expect(bot.slack.oauth.isIssued(after.bot?.token ?? '')).toBe(true);
    expect(after.user.id).toBe(ADMIN);
    expect(await bot.store.workspaces.getServiceKeyInfo(W.teamId)).toEqual(before.key);
    expect(await bot.store.workspaces.getPolicy(W.teamId)).toEqual(before.policy);
    expect(await bot.store.digestSubscriptions.get(W.teamId, W.channel)).toEqual(before.digest);
    expect(settings).toContain('Only workspace admins and owners, or the app managers they name');
    expect(settings).not.toContain('service_key');
    expect(await answerTo(bot, W, 'credits', W.member)).toContain('9,000 credits');
  });
});

/**
 * Issue 23 (defect 4): a workspace of an Enterprise Grid org that moves from the org-wide install to
 * its own is served by its own install (its key was connected under the org's), in the worker, on
 * Home and in the scheduled runs, before and after the org-wide install is removed.
 */
describe('a Grid workspace that moves from the org-wide install to its own', () => {
  const ORG = 'E0MOVING';
  const G1 = testWorkspace('T0MOVE1');
  const G2 = testWorkspace('T0MOVE2');
  const ADMIN = 'U0MOVEADMIN';
  /** G1's member once G1 has its own install: payloads name the org, not an org-wide install. */
  const member: Actor = { ...G1.member, enterprise: { id: ORG, orgWideInstall: false } };
  let bot: DistributedBot;
  let key: string;

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [G1, G2],
      enterprises: { [ORG]: [G1.teamId, G2.teamId] },
      users: {
        [ADMIN]: { name: 'orgadmin', tz: 'UTC', teamId: G1.teamId, isAdmin: true },
        [G1.member.userId]: { name: 'member', tz: 'UTC', teamId: G1.teamId },
      },
    });
    key = bot.newKey(15_000);
    expect(await bot.install(G1.teamId, { enterpriseId: ORG })).toBe(200);
    // Connected while the org-wide install served G1 (as the Home's form stores it then).
    await bot.store.workspaces.putServiceKey({
      teamId: G1.teamId,
      serviceKey: key,
      connectedBy: ADMIN,
      orgWideInstall: { enterpriseId: ORG },
    });
    expect(await bot.install(G1.teamId)).toBe(200);
  });
  afterAll(() => bot.close());

  it('answers /events credits from its own install', async () => {
    const own = await bot.store.installations.fetchInstallation(ownInstall(G1.teamId));

    const answer = await answerTo(bot, G1, 'credits', member);

    expect(own.enterprise?.id).toBe(ORG);
    expect(answer).toContain('15,000 credits');
  });

  it('still works once the org-wide install is removed: commands, Home and the scheduled polls', async () => {
    const removed = await bot.slack.sendEvent({ type: 'app_uninstalled' }, { teamId: G2.teamId });
    await bot.idle();
    await expect(
      bot.store.installations.fetchInstallation({ enterpriseId: ORG, isEnterpriseInstall: true }),
    ).rejects.toThrow(/No Slack installation/);

    const credits = await answerTo(bot, G1, 'credits', member);
    await bot.slack.openHome(G1.member.userId, G1.teamId);
    await bot.idle();
    const home = JSON.stringify(bot.slack.home(G1.member.userId)?.view.blocks ?? null);
    const [person] = bot.sim.seed.personnel.filter((p) => p.linked && p.emailFindable);
    await bot.command(`emails ${person?.id}`, member);
    await bot.idle();
    const card = structuredClone(bot.slack.messages(G1.channel).at(-1));
    if (!card || !visibleText(card).includes('confirm.yes')) throw new Error(`no card: ${card?.text}`);
    await bot.click(card, 'confirm.yes', member);
    await bot.idle();
    bot.sim.completeTasks();
    const polled = await (await bot.scheduled(() => new Date(Date.now() + 31_000))()).pollUnlockTasks();
    const reply = bot.slack.messages(G1.channel).find((m) => m.threadTs === card.ts);

    expect(removed.status).toBe(200);
    expect(credits).toContain('15,000 credits');
    expect(home).toContain('15,000');
    expect(polled).toMatchObject({ posted: 1 });
    expect(visibleText(reply ?? { text: '', blocks: [] })).toContain(person?.email);
    expect(await bot.store.workspaces.getServiceKeyInfo(G1.teamId)).toMatchObject({ last4: key.slice(-4) });
  });
});

/**
 * Issue 23 (defect 6): an install that does not finish answers a 4xx page in plain words with the
 * "Add to Slack" link, stores nothing and logs no secret.
 */
describe('an install that does not finish', () => {
  const W = testWorkspace('T0NOPE');
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [W] });
  });
  afterAll(() => bot.close());

  const stored = () => bot.store.installations.read(ownInstall(W.teamId));

  it.each([
    ['cancel', 403, 'You cancelled the install.'],
    ['forged-code', 400, 'Slack refused this install link: start again.'],
  ] as const)(
    '%s on Slack’s page: HTTP %i “%s”, with the install link, nothing stored',
    async (consent, status, words) => {
      const page = await bot.installPage(W.teamId, { consent });

      expect(page.status).toBe(status);
      expect(page.body).toContain(words);
      expect(page.body).toContain('href="/slack/install"');
      expect(await stored()).toBeUndefined();
    },
  );

  it('a link already used: HTTP 400, “expired or was already used”, nothing stored', async () => {
    const install = await fetch(`${bot.url}/slack/install`);
    const html = await install.text();
    const state = /state=([^&"]+)/.exec(html)?.[1] ?? '';

    // No state cookie of this browser, a state nobody issued: the link cannot be trusted.
    const redirect = await fetch(`${bot.url}/slack/oauth_redirect?code=code-whatever&state=${state}x`);
    const body = await redirect.text();

    expect(redirect.status).toBe(400);
    expect(body).toContain('This install link has expired or was already used: start again.');
    expect(body).toContain('href="/slack/install"');
    expect(await stored()).toBeUndefined();
  });

  it('logs no secret', () => {
    expect(bot.logger.lines.join('\n')).not.toContain(CLIENT_SECRET);
  });
});

/**
 * Issue 23 (token refresh): Slack rotates a bot token (refresh tokens are single-use) and storing the
 * new one fails. The request is still served with the new token, and the next request stores it, so
 * the stored refresh token is the live one and the workspace is not stuck.
 */
describe('a rotated token whose write fails', () => {
  const W = testWorkspace('T0ROTATE');
  let bot: DistributedBot;
  let proxy: DynamoFaultProxy;

  beforeAll(async () => {
    proxy = await startDynamoFaultProxy({ target: inject('dynamoEndpoint') });
    // Tokens issued at install last 5 minutes: due for a refresh at once (10 minutes' margin).
    bot = await startDistributedBot({
      workspaces: [W],
      tokenLifetimeSeconds: 300,
      dynamoEndpoint: proxy.endpoint,
    });
    expect(await bot.install(W.teamId)).toBe(200);
    await bot.connectKey(W.teamId, bot.newKey(7_000));
    bot.slack.oauth.setTokenLifetime(43_200);
  });
  afterEach(() => proxy.clearRule());
  afterAll(async () => {
    await bot.close();
    await proxy.close();
  });

  it('serves the request with the new token, and the next request stores it', async () => {
    const installed = await bot.store.installations.fetchInstallation(ownInstall(W.teamId));
    const writesOfRefresh = (body: unknown) => JSON.stringify(body).includes('installation.bot.#token');
    proxy.setRule((request) =>
      request.operation === 'UpdateItem' && writesOfRefresh(request.body) ? { kind: 'fail' } : undefined,
    );

    const first = await answerTo(bot, W, 'credits', W.member);
    const afterFirst = await bot.store.installations.fetchInstallation(ownInstall(W.teamId));
    proxy.clearRule();
    const second = await answerTo(bot, W, 'credits', W.member);
    const afterSecond = await bot.store.installations.fetchInstallation(ownInstall(W.teamId));

    expect(proxy.stats().failed).toBeGreaterThan(0);
    expect(first).toContain('7,000 credits');
    expect(afterFirst.bot?.refreshToken).toBe(installed.bot?.refreshToken); // the write failed
    expect(second).toContain('7,000 credits');
    expect(bot.slack.oauth.refreshCount()).toBe(1);
    expect(afterSecond.bot?.refreshToken).not.toBe(installed.bot?.refreshToken);
    expect(bot.slack.oauth.isUnusedRefreshToken(afterSecond.bot?.refreshToken ?? '')).toBe(true);
    expect(bot.slack.oauth.isIssued(afterSecond.bot?.token ?? '')).toBe(true);
    const logs = bot.logger.lines.join('\n');
    expect(logs).toContain('could not be stored');
    for (const secret of [afterSecond.bot?.token, afterSecond.bot?.refreshToken, installed.bot?.refreshToken])
      expect(logs).not.toContain(secret);
  });
});
