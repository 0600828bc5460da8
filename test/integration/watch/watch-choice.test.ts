import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SeededExhibitor } from '../../../simulator/server.ts';
import { accountKey } from '../../../src/domain/watch/index.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, BOB, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * An account whose name several exhibitors share, through the real handlers: the candidates shown with
 * This one buttons, a choice, the checks after it, and clicks that must change nothing.
 */

/** A member of another workspace, in a channel of the same id. */
const EVE = { teamId: 'T0OTHER', userId: 'U0EVE', channelId: CHANNEL };

const alertsIn = (bot: Bot) =>
  bot.messages(CHANNEL).filter((m) => m.visibleTo === undefined && /will exhibit/.test(m.text));

const lastAnswer = (bot: Bot): SlackMessage => {
  const answers = bot.messages(CHANNEL).filter((m) => m.visibleTo !== undefined);
  const answer = answers[answers.length - 1];
  if (!answer) throw new Error('no private answer yet');
  return answer;
};

/** The exhibitor ids the This one buttons of `message` choose. */
const choicesOn = (message: SlackMessage) =>
  buttonsOf(message)
    .filter(({ button }) => button.action_id === ACTION_IDS.watchChoose)
    .map(({ button }) => (JSON.parse(button.value ?? '{}') as { exhibitorId: string }).exhibitorId);

describe('account watch: a name several exhibitors share', () => {
  let bot: Bot;
  let balance: number;
  let chosen: SeededExhibitor;
  let other: SeededExhibitor;
  let added: SlackMessage;

  const say = async (text: string, actor = ALICE) => {
    await bot.command(text, actor);
    await bot.idle();
    return lastAnswer(bot);
  };
  /** Clicks This one for `exhibitor` on `message`, as `actor`. */
  const choose = async (message: SlackMessage, exhibitor: SeededExhibitor, actor = ALICE) => {
    const only = message.blocks.filter(
      (block) => choicesOn({ ...message, blocks: [block] })[0] === exhibitor.id,
    );
    await bot.click({ ...message, blocks: only }, ACTION_IDS.watchChoose, actor);
    await bot.idle();
  };
  const watched = () => bot.store.watchLists.account(TEAM, CHANNEL, accountKey(chosen.companyName) ?? '');
  /** An upcoming show neither twin is at. */
  const showWithoutTwins = (skip: string[] = []) => {
    const show = bot.sim.events.find(
      (e) =>
        e.dateStart > bot.sim.today &&
        !chosen.eventIds.includes(e.id) &&
        !other.eventIds.includes(e.id) &&
        !skip.includes(e.id),
    );
    if (!show) throw new Error('no upcoming show without the twins');
    return show;
  };

  beforeAll(async () => {
    bot = await startBot();
    balance = bot.sim.balance(bot.apiKey);
    const [first, second] = bot.sim.seed.exhibitors.slice(7, 9);
    if (!first || !second) throw new Error('the seed has too few exhibitors');
    [chosen, other] = [first, second];
    // Two companies of one name (`X` and `X Inc.`), exhibiting together wherever either does.
    other.companyName = `${chosen.companyName} Inc.`;
    const upcoming = bot.sim.events
      .filter((e) => e.dateStart >= bot.sim.today)
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart));
    const together = upcoming.filter(
      (e) => e.exhibitorIds.includes(chosen.id) || e.exhibitorIds.includes(other.id),
    );
    for (const event of [upcoming[0], ...together])
      for (const twin of [chosen, other])
        if (event) bot.sim.changeData({ kind: 'appear', exhibitor: twin.id, event: event.id });
  });
  afterAll(() => bot.close());

  it('answers an ambiguous add with each candidate (name, domain, id, country) and a This one button', async () => {
    // Act
    added = await say(`watch add ${chosen.companyName}`);

    // Assess
    const text = visibleText(added);
    for (const twin of [chosen, other]) {
      expect(text).toContain(twin.companyName);
      expect(text).toContain(twin.domain);
      expect(text).toContain(`exhibitor ${twin.id}`);
      expect(text).toContain(twin.country);
    }
    expect(choicesOn(added).sort()).toEqual([chosen.id, other.id].sort());
    expect((await watched())?.resolution).toBe('ambiguous');
  });

  it('shows the same choice in `watch status`', async () => {
    const status = await say('watch status');
    expect(visibleText(status)).toContain('1 to choose');
    expect(choicesOn(status).sort()).toEqual([chosen.id, other.id].sort());
  });

  it('changes nothing when another workspace clicks This one', async () => {
    await choose(added, chosen, EVE);
    expect(visibleText(lastAnswer(bot))).toContain('nothing was done');
    const account = await watched();
    expect(account?.resolution).toBe('ambiguous');
    expect(account?.chosenBy).toBeUndefined();
  });

  it('watches the chosen exhibitor, says so, and takes its current shows without an alert', async () => {
    // Act
    await choose(added, chosen, BOB);
    const answer = visibleText(lastAnswer(bot));
    await say('watch check');

    // Assess
    expect(answer).toContain(`Watching ${chosen.companyName} (${chosen.domain}, exhibitor ${chosen.id})`);
    expect(await watched()).toMatchObject({
      resolution: 'resolved',
      exhibitorIds: [chosen.id],
      chosenBy: BOB.userId,
    });
    expect(alertsIn(bot)).toEqual([]);
  });

  it('alerts on a new show of the chosen exhibitor only, not of the other', async () => {
    // Prepare
    const otherShow = showWithoutTwins();
    const chosenShow = showWithoutTwins([otherShow.id]);
    bot.sim.changeData({ kind: 'appear', exhibitor: other.id, event: otherShow.id });
    bot.sim.changeData({ kind: 'appear', exhibitor: chosen.id, event: chosenShow.id });

    // Act
    await say('watch check');
    await say('watch check');

    // Assess
    const alerts = alertsIn(bot);
    expect(alerts).toHaveLength(1);
    expect(visibleText(alerts[0] as SlackMessage)).toContain(chosenShow.name);
    expect(visibleText(alerts[0] as SlackMessage)).not.toContain(otherShow.name);
    expect(await watched()).toMatchObject({ resolution: 'resolved', exhibitorIds: [chosen.id] });
  });

  it('keeps the choice when a check that read the account before it was chosen stores its look-up', async () => {
    // Act: what a check that began while the account was ambiguous would write
    const saved = await bot.store.watchLists.saveLookup(TEAM, CHANNEL, accountKey(chosen.companyName) ?? '', {
      resolution: 'ambiguous',
      exhibitorIds: [chosen.id, other.id],
      told: [],
    });

    // Assess
    expect(saved).toBe(false);
    expect(await watched()).toMatchObject({ resolution: 'resolved', exhibitorIds: [chosen.id] });
  });

  it('changes nothing on a stale click: the account chosen already, then removed', async () => {
    // Act
    await choose(added, other);
    const alreadyChosen = visibleText(lastAnswer(bot));
    const afterChoice = await watched();
    await say(`watch remove ${chosen.companyName}`);
    await choose(added, other);
    const removed = visibleText(lastAnswer(bot));

    // Assess
    expect(alreadyChosen).toContain(`already matched to exhibitor ${chosen.id}`);
    expect(alreadyChosen).toContain('Nothing was changed');
    expect(afterChoice).toMatchObject({ exhibitorIds: [chosen.id], chosenBy: BOB.userId });
    expect(removed).toContain(`no longer watches ${chosen.companyName}. Nothing was changed`);
    expect(await watched()).toBeNull();
  });

  it('left the ledger and the balance as they were', () => {
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
  });
});
