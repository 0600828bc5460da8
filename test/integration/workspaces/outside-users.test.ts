import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlack, FakeView, SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import { viewActionBody, viewSubmissionBody } from '../../../local/fake-slack/surfaces.ts';
import { stateValues, withInitialValues } from '../../../local/fake-slack/view-state.ts';
import { ROLES_DEADLINE_MS } from '../../../src/slack/kit/workspace-roles.ts';
import { confirmationIdOf, visibleText } from '../../support/bot.ts';
import { type DistributedBot, startDistributedBot, testWorkspace } from '../../support/distributed-bot.ts';

const W = testWorkspace('T0HOST');
/** Another organisation, sharing W's channel through Slack Connect. */
const OTHER = testWorkspace('T0GUESTORG');
const ADMIN = 'U0ADMINHOST';
/**
 * An admin of the other organisation's workspace, listed in `SPEND_APPROVERS` (the bot's approvers are
 * each test workspace's approver), acting in W's shared channel: payloads name W as the workspace and
 * their own team as `user.team_id`; `users.info` gives their own team.
 */
const GUEST: Actor = {
  teamId: W.teamId,
  userTeamId: OTHER.teamId,
  userId: OTHER.approver.userId,
  channelId: W.channel,
};
const CONNECT = 'open.workspace';
const GUEST_SAYS = 'You are a guest from another organisation here: only members of this workspace can';
/** How the one permissions check (src/slack/kit/permissions.ts) tells an outside user why not. */
const OUTSIDER_SAYS = 'You are a guest from another organisation here. Nothing was done.';
const ASKERS_ONLY =
  'Only members of this workspace (the person who asked, or a spend approver) may use this button.';

/**
 * Outside users are never admins, approvers or managers (issue 32, defect 5): a Slack Connect guest
 * who is an admin of their own organisation, and listed as a spend approver, through the real
 * handlers, DynamoDB Local, the simulator and the fake Slack. The steps run in order.
 */
describe('a guest from another organisation in a shared channel', () => {
  let bot: DistributedBot;
  let shown: FakeView;

  const repliesTo = (userId: string): SlackMessage[] =>
    bot.slack.messages(W.channel).filter((m) => m.visibleTo === userId && m.user !== userId);
  const lastReplyTo = (userId: string) => visibleText(repliesTo(userId).at(-1) ?? { text: '', blocks: [] });
  const command = async (text: string, actor: Actor) => {
    const answer = await bot.command(text, actor);
    await bot.idle();
    return answer;
  };
  const policy = () => bot.store.workspaces.getPolicy(W.teamId);
  const openSettingsAs = async (user: string) => {
    await bot.slack.openHome(user, W.teamId);
    await bot.idle();
    const home = bot.slack.home(user);
    if (!home) throw new Error(`${user} has no Home`);
    await bot.slack.clickInView({ user, viewId: home.id, actionId: CONNECT });
    const modal = bot.slack.modal(user);
    if (!modal) throw new Error(`no settings modal for ${user}`);
    return modal;
  };
  /** The settings form as the admin sees it, filled in with `inputs`, submitted by `actor`. */
  const submitSettingsAs = (actor: Actor, inputs: Parameters<FakeSlack['submitForm']>[0]['inputs']) =>
    bot.post(
      viewSubmissionBody(actor, shown, stateValues(shown.view, withInitialValues(shown.view, inputs))),
    );

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [W, OTHER],
      users: {
        [ADMIN]: { name: 'admin', tz: 'UTC', teamId: W.teamId, isAdmin: true },
        [W.member.userId]: { name: 'member', tz: 'UTC', teamId: W.teamId },
        [W.approver.userId]: { name: 'approver', tz: 'UTC', teamId: W.teamId },
        [GUEST.userId]: { name: 'guest', tz: 'UTC', teamId: OTHER.teamId, isAdmin: true, isOwner: true },
      },
    });
    expect(await bot.install(W.teamId)).toBe(200);
    await openSettingsAs(ADMIN);
    await bot.slack.submitForm({
      user: ADMIN,
      inputs: { service_key: { value: bot.newKey() }, daily_cap: { value: '500' } },
    });
    await bot.idle();
    shown = await openSettingsAs(ADMIN);
  });
  afterAll(() => bot?.close());

  it('cannot change the approvers, the cap or the app managers, and is told why', async () => {
    const before = await policy();

    const answer = await submitSettingsAs(GUEST, {
      approvers: { value: [GUEST.userId] },
      daily_cap: { value: '999999' },
      app_managers: { value: [GUEST.userId] },
    });
    await bot.idle();

    expect(before).toMatchObject({ dailyCap: 500 });
    expect(await policy()).toEqual(before);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`${GUEST_SAYS} change these settings.`);
  });

  it('is shown why when opening the settings, not the form', async () => {
    const answer = await bot.post(
      viewActionBody(GUEST, shown, { type: 'button', action_id: CONNECT, block_id: 'home-workspace' }),
    );
    await bot.idle();

    expect(answer.status).toBe(200);
    const modal = JSON.stringify(bot.slack.modal(GUEST.userId)?.view.blocks ?? []);
    expect(modal).toContain(`${GUEST_SAYS} change these settings.`);
    expect(modal).not.toContain('daily_cap');
  });

  it('cannot set a watch budget, though listed as a spend approver; a member approver can', async () => {
    await command('watch add globex.com', W.member);

    await command('watch budget 500', GUEST);

    expect((await bot.store.watchLists.settings(W.teamId, W.channel))?.budgetCredits ?? 0).toBe(0);
    expect(lastReplyTo(GUEST.userId)).toContain(
      `Only spend approvers and workspace admins may use \`/events watch budget\`. ${OUTSIDER_SAYS}`,
    );
    await command('watch budget 100', W.approver);
    expect(await bot.store.watchLists.settings(W.teamId, W.channel)).toMatchObject({
      budgetCredits: 100,
      budgetSetBy: W.approver.userId,
    });
  });

  it('cannot set a plan’s budget; an approver can', async () => {
    await command('plan budget 20000 Q2-2027', GUEST);

    expect(Object.keys((await bot.store.plans.get(W.teamId, W.channel))?.budgets ?? {})).toEqual([]);
    expect(lastReplyTo(GUEST.userId)).toContain(
      `Only spend approvers and workspace admins may use \`/events plan budget\`. ${OUTSIDER_SAYS}`,
    );
    await command('plan budget 20000 Q2-2027', W.approver);
    expect(Object.keys((await bot.store.plans.get(W.teamId, W.channel))?.budgets ?? {})).toHaveLength(1);
  });

  it('cannot set a plan’s costs or currency', async () => {
    const before = await bot.store.plans.get(W.teamId, W.channel);

    await command('plan currency EUR', GUEST);
    expect(lastReplyTo(GUEST.userId)).toContain(
      `Only members of this workspace may use \`/events plan currency\`. ${OUTSIDER_SAYS}`,
    );
    await command('plan cost 26855 12000 booth', GUEST);
    expect(lastReplyTo(GUEST.userId)).toContain(
      `Only members of this workspace may use \`/events plan cost\`. ${OUTSIDER_SAYS}`,
    );

    const after = await bot.store.plans.get(W.teamId, W.channel);
    expect(after?.revision).toBe(before?.revision);
    expect(after?.currency).toBeUndefined();
  });

  it('cannot confirm or cancel a charge, though listed as a spend approver; nothing is charged', async () => {
    const event = bot.sim.events.find((e) => e.exhibitorCount > 0 && e.personnelCount > 0)?.eventId;
    await command(`unlock ${event}`, W.member);
    const card = bot.slack.messages(W.channel).at(-1);
    if (!card || !visibleText(card).includes('confirm.yes')) throw new Error('no confirmation card');
    const id = confirmationIdOf(card);
    const serviceCalls = bot.sim.requests().length;

    await bot.click(card, 'confirm.yes', GUEST);
    await bot.idle();

    expect(await bot.store.confirmations.get(id)).toMatchObject({ status: 'pending' });
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
    expect(lastReplyTo(GUEST.userId)).toContain(`${ASKERS_ONLY} ${OUTSIDER_SAYS}`);
    await bot.click(card, 'confirm.no', GUEST);
    await bot.idle();
    expect(await bot.store.confirmations.get(id)).toMatchObject({ status: 'pending' });
    expect(lastReplyTo(GUEST.userId)).toContain(`${ASKERS_ONLY} ${OUTSIDER_SAYS}`);
    await bot.click(card, 'confirm.yes', W.approver);
    await bot.idle();
    expect(await bot.store.confirmations.get(id)).toMatchObject({ confirmedBy: W.approver.userId });
  });

  it('answers an admin’s key the service is slow to check within Slack’s 3 s, users.info slow too', async () => {
    const keyBefore = await bot.store.workspaces.getServiceKeyInfo(W.teamId);
    // users.info slow but well within the app's wait for it; the service slower than its wait for the key.
    bot.slack.failNext('users.info', `slow:${ROLES_DEADLINE_MS / 5}`);
    bot.sim.injectFault({ kind: 'latency', ms: 2500, times: 1 });

    const answer = await submitSettingsAs(
      { teamId: W.teamId, userId: ADMIN, channelId: W.channel },
      { service_key: { value: bot.newKey() } },
    );
    bot.slack.clearFailures();
    bot.sim.clearFaults();
    await bot.idle();

    // The answer says the app stopped waiting (the service's answer would have checked the key):
    // no timing is asserted, so a loaded machine cannot fail it.
    expect(answer.body).toContain('The service could not be reached to check this key.');
    expect(await bot.store.workspaces.getServiceKeyInfo(W.teamId)).toEqual(keyBefore);
  });

  // Last of the Slack faults: a rate-limited client holds its later calls until `Retry-After` passes.
  it.each([
    ['answers 4 s late', 'slow:4000', 1],
    ['is rate limited', 'ratelimited', 3],
  ])(
    'refuses the settings within Slack’s 3 s when users.info %s, saying to try again',
    async (_, fault, times) => {
      const before = await policy();
      bot.slack.failNext('users.info', fault, times);

      const answer = await submitSettingsAs(W.member, { daily_cap: { value: '1' } });
      bot.slack.clearFailures();
      await bot.idle();

      // The answer says the app stopped waiting for Slack (no timing asserted: see above).
      expect(answer.body).toContain(
        'Slack did not answer in time to say whether you can change these settings.',
      );
      expect(await policy()).toEqual(before);
    },
  );

  it('may still read the service’s public data, but not the workspace’s balance', async () => {
    await command('show 26855', GUEST);
    expect(lastReplyTo(GUEST.userId)).not.toContain('guest from another organisation');

    await command('credits', GUEST);
    expect(lastReplyTo(GUEST.userId)).toContain(`may use \`/events credits\`. ${OUTSIDER_SAYS}`);
  });
});
