import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import { viewActionBody } from '../../../local/fake-slack/surfaces.ts';
import { NOT_INSTALLED_TEXT } from '../../../src/slack/app.ts';
import { visibleText } from '../../support/bot.ts';
import {
  CLIENT_SECRET,
  type DistributedBot,
  startDistributedBot,
  testWorkspace,
} from '../../support/distributed-bot.ts';

const ORG = 'E0ACME';
const G1 = testWorkspace('T0GRID1');
const G2 = testWorkspace('T0GRID2');
const ADMIN = 'U0ORGADMIN';
/** An admin of the Grid org (not of any workspace), member of G2. */
const ORG_ADMIN = 'U0GRIDADMIN';
/** An admin of G1 who is also a plain member of G2: `users.info` says `is_admin` (about G1) wherever they act. */
const G1_ADMIN_IN_G2 = 'U0G1ADMIN';
const CONNECT = 'open.workspace';
const BIG_EVENT = '26855';

/** A member of a workspace of the org, where the app is installed org-wide: their payloads say so. */
const inOrg = (actor: Actor): Actor => ({ ...actor, enterprise: { id: ORG, orgWideInstall: true } });

/**
 * An Enterprise Grid org installs the app once, org-wide (issue 15: "every request resolves its
 * installation by team (and enterprise) id"). The installation is keyed by the enterprise; each
 * workspace of the org still connects its own key, and its worker jobs and scheduled runs — which know
 * only the team — find the org's bot token through the connected workspace.
 */
describe('an org-wide (Enterprise Grid) install', () => {
  let bot: DistributedBot;
  let keyG1: string;
  let botToken = '';

  const ackText = (answer: { body: string }) => (JSON.parse(answer.body) as { text?: string }).text ?? '';

  async function cardFor(text: string): Promise<SlackMessage> {
    await bot.command(text, inOrg(G1.member));
    await bot.idle();
    const card = bot.slack.messages(G1.channel).at(-1);
    if (!card || !visibleText(card).includes('confirm.yes'))
      throw new Error(`no confirmation card for ${text}: ${card?.text}`);
    return structuredClone(card);
  }

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [G1, G2],
      enterprises: { [ORG]: [G1.teamId, G2.teamId] },
      users: {
        [ADMIN]: { name: 'orgadmin', tz: 'UTC', teamId: G1.teamId, isAdmin: true },
        [ORG_ADMIN]: { name: 'gridadmin', tz: 'UTC', teamId: G2.teamId, isOrgAdmin: true },
        [G1_ADMIN_IN_G2]: {
          name: 'g1admin',
          tz: 'UTC',
          teamId: G1.teamId,
          isAdmin: true,
          alsoIn: [G2.teamId],
        },
        [G2.member.userId]: { name: 'g2member', tz: 'UTC', teamId: G2.teamId },
      },
    });
    keyG1 = bot.newKey(20_000);
  });
  afterAll(() => bot.close());

  it('is stored once, by the enterprise, not per workspace', async () => {
    expect(await bot.install(G1.teamId, { enterpriseId: ORG })).toBe(200);

    const installed = await bot.store.installations.fetchInstallation({
      enterpriseId: ORG,
      isEnterpriseInstall: true,
    });
    botToken = installed.bot?.token ?? '';
    expect(installed.isEnterpriseInstall).toBe(true);
    expect(botToken).not.toBe('');
    await expect(
      bot.store.installations.fetchInstallation({ teamId: G1.teamId, isEnterpriseInstall: false }),
    ).rejects.toThrow(/No Slack installation/);
  });

  it('serves every workspace of the org: until one connects its key, it is told how', async () => {
    const [g1, g2] = [
      await bot.command('credits', inOrg(G1.member)),
      await bot.command('credits', inOrg(G2.member)),
    ];

    for (const answer of [g1, g2]) {
      expect(ackText(answer)).toMatch(/not connected its Event Intelligence key yet/);
      expect(ackText(answer)).not.toBe(NOT_INSTALLED_TEXT);
    }
    expect(bot.sim.requests()).toHaveLength(0);
  });

  it('lets a workspace admin connect the workspace’s key from App Home, noting the org-wide install', async () => {
    await bot.slack.openHome(ADMIN, G1.teamId);
    await bot.idle();
    const home = bot.slack.home(ADMIN);
    if (!home) throw new Error('no Home for the admin');
    await bot.slack.clickInView({ user: ADMIN, viewId: home.id, actionId: CONNECT });
    await bot.slack.submitForm({ user: ADMIN, inputs: { service_key: { value: keyG1 } } });
    await bot.idle();

    expect(bot.slack.modal(ADMIN)).toBeUndefined();
    expect(await bot.store.workspaces.getServiceKeyInfo(G1.teamId)).toMatchObject({
      last4: keyG1.slice(-4),
      connectedBy: ADMIN,
      orgWideInstall: { enterpriseId: ORG },
    });
    expect(await bot.store.workspaces.getServiceKeyInfo(G2.teamId)).toBeNull();
  });

  it('lets an admin of the org, who is no workspace admin, manage a workspace of the org; its members may not', async () => {
    const keyG2 = bot.newKey(5_000);
    const openSettings = async (user: string) => {
      await bot.slack.openHome(user, G2.teamId);
      await bot.idle();
      const home = bot.slack.home(user);
      if (!home) throw new Error(`no Home for ${user}`);
      await bot.slack.clickInView({ user, viewId: home.id, actionId: CONNECT });
      return JSON.stringify(bot.slack.modal(user)?.view.blocks ?? []);
    };

    const refused = await openSettings(G2.member.userId);
    await openSettings(ORG_ADMIN);
    await bot.slack.submitForm({ user: ORG_ADMIN, inputs: { service_key: { value: keyG2 } } });
    await bot.idle();

    expect(bot.slack.modal(ORG_ADMIN)).toBeUndefined();
    expect(await bot.store.workspaces.getServiceKeyInfo(G2.teamId)).toMatchObject({
      last4: keyG2.slice(-4),
      connectedBy: ORG_ADMIN,
      orgWideInstall: { enterpriseId: ORG },
    });
    expect(refused).not.toContain('service_key');
    expect(refused).toContain('Only workspace admins and owners');
  });

  it('never counts an admin of one workspace of the org as an admin of another they are a member of', async () => {
    await bot.slack.openHome(G1_ADMIN_IN_G2, G2.teamId);
    await bot.idle();
    const home = bot.slack.home(G1_ADMIN_IN_G2);
    if (!home) throw new Error('no Home for the admin of G1');
    const keyBefore = await bot.store.workspaces.getServiceKeyInfo(G2.teamId);

    // Their click on G2's Home: the payload names G2 and the org; `users.info` their G1 flags.
    const inG2 = inOrg({
      teamId: G2.teamId,
      userTeamId: G1.teamId,
      userId: G1_ADMIN_IN_G2,
      channelId: G2.channel,
    });
    await bot.post(
      viewActionBody(inG2, home, { type: 'button', action_id: CONNECT, block_id: 'home-workspace' }),
    );
    await bot.idle();
    const modal = JSON.stringify(bot.slack.modal(G1_ADMIN_IN_G2)?.view.blocks ?? []);

    expect(modal).not.toContain('service_key');
    expect(modal).toContain('Only workspace admins and owners');
    expect(await bot.store.workspaces.getServiceKeyInfo(G2.teamId)).toEqual(keyBefore);
  });

  it('charges a confirmed unlock to the workspace’s key in the worker, updating the card with the org’s token', async () => {
    const card = await cardFor(`unlock ${BIG_EVENT}`);
    const calls = bot.slack.calls.length;

    await bot.click(card, 'confirm.yes', inOrg(G1.member));
    await bot.idle();

    expect(bot.sim.ledger(keyG1)).toHaveLength(1);
    // The worker updated the card with the token of the org's install.
    const updates = bot.slack.calls.slice(calls).filter((call) => call.method === 'chat.update');
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((call) => call.authorization === `Bearer ${botToken}`)).toBe(true);
  });

  it('polls the workspace’s unlock task in the scheduled run and replies in the card’s thread', async () => {
    const [person] = bot.sim.seed.personnel.filter((p) => p.linked && p.emailFindable);
    const card = await cardFor(`emails ${person?.id}`);
    await bot.click(card, 'confirm.yes', inOrg(G1.member));
    await bot.idle();
    bot.sim.completeTasks();

    const summary = await (await bot.scheduled(() => new Date(Date.now() + 31_000))()).pollUnlockTasks();

    expect(summary).toMatchObject({ posted: 1 });
    const reply = bot.slack.messages(G1.channel).find((m) => m.threadTs === card.ts);
    expect(visibleText(reply ?? { text: '', blocks: [] })).toContain(person?.email);
  });

  it('is removed for the whole org by an org-wide uninstall: every workspace is told, nothing runs', async () => {
    const answer = await bot.slack.sendEvent({ type: 'app_uninstalled' }, { teamId: G1.teamId });
    await bot.idle();
    const [simRequests] = [bot.sim.requests().length];
    const [g1, g2] = [
      await bot.command('credits', inOrg(G1.member)),
      await bot.command('credits', inOrg(G2.member)),
    ];
    await bot.idle();

    expect(answer.status).toBe(200);
    await expect(
      bot.store.installations.fetchInstallation({ enterpriseId: ORG, isEnterpriseInstall: true }),
    ).rejects.toThrow(/No Slack installation/);
    expect(await bot.store.workspaces.getServiceKeyInfo(G1.teamId)).toBeNull();
    expect([ackText(g1), ackText(g2)]).toEqual([NOT_INSTALLED_TEXT, NOT_INSTALLED_TEXT]);
    expect(bot.sim.requests()).toHaveLength(simRequests);
  });

  it('never puts the org’s bot token or the workspace’s key in a log line or a Slack message', () => {
    const shown = [bot.logger.lines.join('\n'), JSON.stringify(bot.slack.messages())].join('\n');

    for (const secret of [keyG1, CLIENT_SECRET, botToken]) expect(shown).not.toContain(secret);
  });
});
