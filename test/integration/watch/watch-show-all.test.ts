import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

/*
 * Show all on a watch alert of more than 10 rows, through the real handlers: the click lists that
 * alert's rows (from the shows told in its thread), not the channel's whole watch list.
 */

/** The watch alerts posted in the channel (for everyone), oldest first. */
const alertsIn = (bot: Bot) =>
  bot
    .messages(CHANNEL)
    .filter((m) => m.visibleTo === undefined && /will exhibit|new appearances/.test(m.text));

describe('Show all on a watch alert', () => {
  let bot: Bot;
  /** A second watched company with shows of its own, none of them in the alert. */
  let other: { companyName: string; shows: string[] };
  const company = () => {
    const found = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    if (!found) throw new Error('the seed has no known company');
    return found;
  };
  /** Upcoming shows the known company is not at yet, soonest first. */
  const newShows = (count: number) =>
    bot.sim.events
      .filter((e) => e.dateStart > bot.sim.today && !company().eventIds.includes(e.id))
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart))
      .slice(0, count);
  const appearAt = (shows: { id: string }[]) => {
    for (const show of shows) bot.sim.changeData({ kind: 'appear', exhibitor: company().id, event: show.id });
  };
  const say = async (text: string) => {
    await bot.command(text, ALICE);
    await bot.idle();
  };
  const showAll = async (alert: SlackMessage) => {
    await bot.slack.click({
      user: ALICE.userId,
      channel: CHANNEL,
      ts: alert.ts,
      actionId: ACTION_IDS.watchShowAll,
    });
    await bot.idle();
    const answers = bot.messages(CHANNEL).filter((m) => m.visibleTo === ALICE.userId);
    return visibleText(answers[answers.length - 1] as SlackMessage);
  };

  beforeAll(async () => {
    bot = await startBot();
    const upcoming = new Map(
      bot.sim.events.filter((e) => e.dateStart > bot.sim.today).map((e) => [e.id, e.name]),
    );
    const names = bot.sim.seed.exhibitors.map((x) => x.companyName);
    const found = bot.sim.seed.exhibitors.find(
      (x) =>
        x.companyName !== KNOWN_COMPANY_NAME &&
        names.filter((name) => name === x.companyName).length === 1 &&
        x.eventIds.some((id) => upcoming.has(id)),
    );
    if (!found) throw new Error('the seed has no second company with upcoming shows');
    other = {
      companyName: found.companyName,
      shows: found.eventIds.flatMap((id) => upcoming.get(id) ?? []),
    };
  });
  afterAll(() => bot.close());

  it('lists every row of that alert, and nothing else the channel watches', async () => {
    // Prepare: two companies watched (their current shows told), then 12 new shows for one
    await say(`watch add ${KNOWN_COMPANY_NAME}, ${other.companyName}`);
    const appeared = newShows(12);
    expect(appeared).toHaveLength(12);
    appearAt(appeared);
    await say('watch check');
    const [alert] = alertsIn(bot);
    if (!alert) throw new Error('no alert posted');
    expect(visibleText(alert)).toContain('and 2 more');
    // A later alert's row is not this one's
    const later = newShows(1);
    appearAt(later);
    await say('watch check');
    expect(alertsIn(bot)).toHaveLength(2);

    // Act
    const answer = await showAll(alert);

    // Assess
    expect(answer).toContain('This alert’s 12 appearances');
    for (const show of appeared) expect(answer).toContain(show.name);
    expect(answer).not.toContain(later[0]?.name);
    expect(answer).not.toContain(other.companyName);
    const inAlert = new Set(appeared.map((show) => show.name));
    for (const name of other.shows.filter((n) => !inAlert.has(n))) expect(answer).not.toContain(name);
  });

  it('typed without an alert, says where it works', async () => {
    // Act
    await say('watch alert');

    // Assess
    const answers = bot.messages(CHANNEL).filter((m) => m.visibleTo === ALICE.userId);
    expect(visibleText(answers[answers.length - 1] as SlackMessage)).toContain(
      'Show all works from the button on a watch alert',
    );
  });
});
