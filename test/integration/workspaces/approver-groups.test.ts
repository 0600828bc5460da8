import { afterEach, describe, expect, it } from 'vitest';
import { appDmOf } from '../../../local/fake-slack/fake-slack.ts';
import { type Actor, buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { CONFIRMATION_WORDS } from '../../../src/slack/kit/confirmation-card.ts';
import { ALICE, type Bot, CHANNEL, TEAM, askFor, startBot, toldTo, visibleText } from '../../support/bot.ts';

/**
 * A single workspace's approvers by Slack user group: `SPEND_APPROVERS` names a group beside user ids,
 * its members read with the bot token (`usergroups.users.list`), through the real handlers, DynamoDB
 * Local, the simulator and the fake Slack.
 */
const BIG_EVENT = '26855';
const GROUP = 'S0APPROVERS';
const CAROL: Actor = { teamId: TEAM, userId: 'U0CAROL', channelId: CHANNEL };
/** In the group, but a guest from another organisation in a Slack Connect channel. */
const GUEST: Actor = { teamId: TEAM, userTeamId: 'T0GUESTORG', userId: 'U0GUEST', channelId: CHANNEL };

describe('approvers by user group in a single workspace (SPEND_APPROVERS)', () => {
  let bot: Bot;
  afterEach(() => bot?.close());

  const startWithGroup = async () => {
    bot = await startBot({
      approvalThreshold: 1000,
      spendApprovers: `U0SOMEONEELSE,${GROUP}`,
      userGroups: { [GROUP]: [CAROL.userId, GUEST.userId] },
    });
    bot.slack.addUser(GUEST.userId, { name: 'guest', tz: 'UTC', teamId: 'T0GUESTORG' });
  };

  it('lets a member of the group confirm a charge over APPROVAL_THRESHOLD that its requester cannot', async () => {
    await startWithGroup();
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);
    expect(visibleText(card)).toContain(`<@${CAROL.userId}>`);

    await bot.click(card, 'confirm.yes', ALICE);
    await bot.idle();
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(toldTo(bot, ALICE.userId)).toContain('need an approver other than the requester');

    await bot.click(card, 'confirm.yes', CAROL);
    await bot.idle();
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
    expect(visibleText(bot.find((message) => message.ts === card.ts))).toContain(
      `Confirmed by <@${CAROL.userId}>`,
    );
    const reads = bot.slack.calls.filter((call) => call.method === 'usergroups.users.list');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((call) => call.args.usergroup === GROUP)).toBe(true);
  });

  it('tells each approver the card names, once, in a direct message with a link to the card', async () => {
    // Prepare
    await startWithGroup();
    bot.slack.addUser(CAROL.userId, { name: 'carol', tz: 'UTC' });

    // Act: the card, then the requester's refused click (no second message for it)
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);
    await bot.click(card, 'confirm.yes', ALICE);
    await bot.idle();

    // Assess
    const dms = bot.slack.messages(appDmOf(CAROL.userId));
    expect(dms).toHaveLength(1);
    expect(dms[0]?.text).toContain(`https://slack.com/archives/${CHANNEL}/p${card.ts.replace('.', '')}`);
    expect(dms[0]?.text).toContain(`<@${ALICE.userId}> asks to spend`);
    expect(bot.slack.messages(appDmOf(ALICE.userId))).toEqual([]);
  });

  it('says in the Confirm dialog, before the requester answers it, that only an approver can confirm', async () => {
    // Prepare
    await startWithGroup();

    // Act
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);

    // Assess
    const confirm = buttonsOf(card).find(({ button }) => button.action_id === 'confirm.yes')?.button;
    const dialog = JSON.stringify(confirm && 'confirm' in confirm ? confirm.confirm : {});
    expect(dialog).toContain(CONFIRMATION_WORDS.dialogTitle);
    expect(dialog).toContain('Only an approver can confirm this');
  });

  it('never lets a guest from another organisation confirm, though the group lists them', async () => {
    await startWithGroup();
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);

    await bot.click(card, 'confirm.yes', GUEST);
    await bot.idle();

    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(toldTo(bot, GUEST.userId)).toContain('You are a guest from another organisation here');
  });

  it('counts no one of a group Slack cannot list: its member is refused, nothing is charged', async () => {
    await startWithGroup();
    bot.slack.failNext('usergroups.users.list', 'missing_scope', 20);
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);

    await bot.click(card, 'confirm.yes', CAROL);
    await bot.idle();

    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(toldTo(bot, CAROL.userId)).toContain('need an approver other than the requester');
    expect(bot.logger.lines.some((line) => line.includes('could not read the approvers’ user group'))).toBe(
      true,
    );
  });
});
