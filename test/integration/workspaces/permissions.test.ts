import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import { visibleText } from '../../support/bot.ts';
import { type DistributedBot, startDistributedBot, testWorkspace } from '../../support/distributed-bot.ts';

const W = testWorkspace('T0PERMS');
/** Another organisation, sharing W's channel through Slack Connect. */
const OTHER = testWorkspace('T0PARTNER');
const ADMIN = 'U0PERMSADMIN';
/** A user of the other organisation in W's shared channel: payloads name W, `users.info` their own team. */
const OUTSIDER: Actor = {
  teamId: W.teamId,
  userTeamId: OTHER.teamId,
  userId: OTHER.member.userId,
  channelId: W.channel,
};
/** A guest of W itself (Slack's `is_restricted`). */
const GUEST: Actor = { teamId: W.teamId, userId: 'U0PERMSGUEST', channelId: W.channel };
const CONNECT = 'open.workspace';
const SHOW = '26855';

/**
 * Who may use what (issue 41, item 2), through the real handlers, DynamoDB Local, the simulator and
 * the fake Slack: an outside user gets the service's public data only, a workspace guest reads but
 * never spends or changes, and budgets are the approvers' and admins'. The steps run in order.
 */
describe('permissions declared once, held for every kind of user', () => {
  let bot: DistributedBot;

  const repliesTo = (userId: string): SlackMessage[] =>
    bot.slack.messages(W.channel).filter((m) => m.visibleTo === userId && m.user !== userId);
  const lastReplyTo = (userId: string) => visibleText(repliesTo(userId).at(-1) ?? { text: '', blocks: [] });
  const say = async (text: string, actor: Actor) => {
    await bot.command(text, actor);
    await bot.idle();
    return lastReplyTo(actor.userId);
  };
  const uploads = () => bot.slack.calls.filter((call) => call.method.startsWith('files.')).length;
  const plan = () => bot.store.plans.get(W.teamId, W.channel);

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [W, OTHER],
      users: {
        [ADMIN]: { name: 'admin', tz: 'UTC', teamId: W.teamId, isAdmin: true },
        [W.member.userId]: { name: 'member', tz: 'UTC', teamId: W.teamId },
        [W.approver.userId]: { name: 'approver', tz: 'UTC', teamId: W.teamId },
        [GUEST.userId]: { name: 'guest', tz: 'UTC', teamId: W.teamId, isGuest: true },
        [OUTSIDER.userId]: { name: 'outsider', tz: 'UTC', teamId: OTHER.teamId, isAdmin: true },
      },
    });
    expect(await bot.install(W.teamId)).toBe(200);
    await bot.slack.openHome(ADMIN, W.teamId);
    await bot.idle();
    const home = bot.slack.home(ADMIN);
    if (!home) throw new Error('no Home for the admin');
    await bot.slack.clickInView({ user: ADMIN, viewId: home.id, actionId: CONNECT });
    await bot.slack.submitForm({ user: ADMIN, inputs: { service_key: { value: bot.newKey() } } });
    await bot.idle();
  });
  afterAll(() => bot?.close());

  it('never shows an outside user the ledger: spend and its export are refused, nothing is sent', async () => {
    const files = uploads();

    const card = await say('spend', OUTSIDER);
    const exported = await say('spend today export', OUTSIDER);

    for (const answer of [card, exported]) {
      expect(answer).toContain('Only members of this workspace may use `/events spend`.');
      expect(answer).toContain('You are a guest from another organisation here.');
    }
    expect(uploads()).toBe(files);
    expect(await say('spend', W.member)).not.toContain('Only members');
  });

  it('lets an outside user read the public data, and never change the plan', async () => {
    await say(`plan add ${SHOW}`, W.member);
    await say(`plan cost ${SHOW} 12000 booth 3000 travel`, W.member);
    const before = await plan();

    const shown = await say(`show ${SHOW}`, OUTSIDER);
    const removed = await say(`plan remove ${SHOW}`, OUTSIDER);

    expect(shown).not.toContain('Only ');
    expect(removed).toContain('Only members of this workspace may use `/events plan remove`.');
    expect((await plan())?.shows.map((show) => show.eventId)).toEqual([SHOW]);
    expect((await plan())?.costs).toEqual(before?.costs);
    expect(await say('plan', OUTSIDER)).toContain(
      'Only members and guests of this workspace may use `/events plan`.',
    );
  });

  it('gives budgets for the plan and the watch to approvers and admins alone', async () => {
    await say('watch add globex.com', W.member);

    const planBudget = await say('plan budget 20000 Q2-2027', W.member);
    const watchBudget = await say('watch budget 500', W.member);

    for (const [answer, word] of [
      [planBudget, 'plan budget'],
      [watchBudget, 'watch budget'],
    ] as const)
      expect(answer).toContain(`Only spend approvers and workspace admins may use \`/events ${word}\`.`);
    expect((await plan())?.budgets).toEqual({});
    expect((await bot.store.watchLists.settings(W.teamId, W.channel))?.budgetCredits ?? 0).toBe(0);
    await say('plan budget 20000 Q2-2027', W.approver);
    await say('watch budget 100', { ...W.member, userId: ADMIN });
    expect(Object.keys((await plan())?.budgets ?? {})).toHaveLength(1);
    expect(await bot.store.watchLists.settings(W.teamId, W.channel)).toMatchObject({ budgetCredits: 100 });
  });

  it('lets a workspace guest read the channel’s plan and the public data, never spend or change', async () => {
    const files = uploads();

    expect(await say('plan', GUEST)).not.toContain('Only ');
    expect(await say(`fit ${SHOW}`, GUEST)).not.toContain('Only ');
    for (const [text, word] of [
      ['spend', 'spend'],
      [`plan remove ${SHOW}`, 'plan remove'],
      ['plan export', 'plan export'],
      [`unlock ${SHOW}`, 'unlock'],
    ] as const) {
      const answer = await say(text, GUEST);
      expect(answer).toContain(`Only members of this workspace may use \`/events ${word}\`.`);
      expect(answer).toContain('You are a guest of this workspace.');
    }
    expect(uploads()).toBe(files);
    expect((await plan())?.shows).toHaveLength(1);
  });

  it('holds a button to what it runs: an outside user’s Remove on the plan card removes nothing', async () => {
    await bot.command('plan', W.member);
    await bot.idle();
    const card = repliesTo(W.member.userId).at(-1);
    if (!card || !visibleText(card).includes('plan.remove')) throw new Error('no plan card with Remove');

    await bot.click(card, 'plan.remove', OUTSIDER);
    await bot.idle();

    expect(lastReplyTo(OUTSIDER.userId)).toContain('may use `/events plan remove`');
    expect((await plan())?.shows).toHaveLength(1);
  });
});
