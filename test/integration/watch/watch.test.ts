import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { createScheduledLoader } from '../../../src/roots/runtime.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * Account watch through the real handlers: `/events watch …` typed in Slack, the simulator's data
 * changing, checks by command and by the scheduled job, against DynamoDB Local and the fake Slack.
 */

const OTHER = 'C0OTHER';

/** The watch alerts posted in a channel (for everyone), oldest first. */
const alertsIn = (bot: Bot, channel = CHANNEL) =>
  bot.messages(channel).filter((m) => m.visibleTo === undefined && /will exhibit/.test(m.text));

/** The last private answer in the channel. */
const lastAnswer = (bot: Bot, channel = CHANNEL): SlackMessage => {
  const answers = bot.messages(channel).filter((m) => m.visibleTo !== undefined);
  const answer = answers[answers.length - 1];
  if (!answer) throw new Error('no private answer yet');
  return answer;
};

describe('account watch', () => {
  let bot: Bot;
  let balance: number;
  const say = async (text: string, actor = ALICE) => {
    await bot.command(text, actor);
    await bot.idle();
    return visibleText(lastAnswer(bot, actor.channelId));
  };
  const scheduledCheck = async (channelId: string, checkId: string) =>
    (await createScheduledLoader(bot.scheduledEnv(), { logger: bot.logger })()).checkWatchedChannel({
      teamId: TEAM,
      channelId,
      checkId,
    });
  const company = () => {
    const found = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    if (!found) throw new Error('the seed has no known company');
    return found;
  };
  /** An upcoming show the company is not at yet. */
  const newShowFor = () => {
    const { eventIds } = company();
    const show = bot.sim.events.find((e) => e.dateStart > bot.sim.today && !eventIds.includes(e.id));
    if (!show) throw new Error('no upcoming show left');
    return show;
  };

  beforeAll(async () => {
    bot = await startBot();
    balance = bot.sim.balance(bot.apiKey);
  });
  afterAll(() => bot.close());

  it('answers an added company with where it exhibits now, and charges nothing', async () => {
    // Prepare
    const upcoming = bot.sim.events.filter(
      (e) => company().eventIds.includes(e.id) && e.dateStart >= bot.sim.today,
    );
    expect(upcoming.length).toBeGreaterThan(0);

    // Act
    const answer = await say(`watch add ${KNOWN_COMPANY_NAME}`);

    // Assess
    expect(answer).toContain(`${KNOWN_COMPANY_NAME}* (target) exhibits at`);
    expect(answer).toContain(upcoming.sort((a, b) => a.dateStart.localeCompare(b.dateStart))[0]?.name);
    expect(answer).toContain('Charged nothing');
    expect(alertsIn(bot)).toEqual([]);
  });

  it('posts one alert naming the company, its new show and the team’s fit score for it, once', async () => {
    // Prepare
    const show = newShowFor();
    bot.sim.changeData({ kind: 'appear', exhibitor: company().id, event: show.id });

    // Act
    await say('watch check');
    await say('watch check');
    const scheduled = await scheduledCheck(CHANNEL, 'scheduled-1');

    // Assess
    const alerts = alertsIn(bot);
    expect(alerts).toHaveLength(1);
    expect(visibleText(alerts[0] as SlackMessage)).toContain(KNOWN_COMPANY_NAME);
    expect(visibleText(alerts[0] as SlackMessage)).toContain(show.name);
    expect(visibleText(alerts[0] as SlackMessage)).toContain(`Fit ${show.fit.score.toFixed(1)} / 10`);
    expect(scheduled).toMatchObject({ accounts: 1, postedAlert: false, appeared: 0 });
  });

  it('posts a new appearance once when the same scheduled check is delivered twice', async () => {
    // Prepare
    const show = newShowFor();
    bot.sim.changeData({ kind: 'appear', exhibitor: company().id, event: show.id });

    // Act
    const first = await scheduledCheck(CHANNEL, 'scheduled-2');
    const redelivered = await scheduledCheck(CHANNEL, 'scheduled-2');

    // Assess
    expect(first).toMatchObject({ postedAlert: true, appeared: 1 });
    expect(redelivered).toMatchObject({ alreadyChecked: true, postedAlert: false });
    expect(alertsIn(bot)).toHaveLength(2);
    expect(visibleText(alertsIn(bot)[1] as SlackMessage)).toContain(show.name);
  });

  it('checks at once when the watch is turned back on, posting what appeared while it was off', async () => {
    // Prepare
    expect(await say('watch off')).toContain('watch is off');
    const show = newShowFor();
    bot.sim.changeData({ kind: 'appear', exhibitor: company().id, event: show.id });

    // Act
    const answer = await say('watch on');

    // Assess: no wait for the hourly run
    expect(answer).toContain('being checked now; you’ll hear only about new shows');
    expect(alertsIn(bot)).toHaveLength(3);
    expect(visibleText(alertsIn(bot)[2] as SlackMessage)).toContain(show.name);
  });

  it('posts nothing for a removed company, nor in a channel that watches nothing', async () => {
    // Prepare
    expect(await say(`watch remove ${KNOWN_COMPANY_NAME}`)).toContain('no longer watches');
    bot.sim.changeData({ kind: 'appear', exhibitor: company().id, event: newShowFor().id });

    // Act
    await say('watch check');
    const scheduled = await scheduledCheck(CHANNEL, 'scheduled-3');
    const elsewhere = await scheduledCheck(OTHER, 'scheduled-4');

    // Assess
    expect(alertsIn(bot)).toHaveLength(3);
    expect(alertsIn(bot, OTHER)).toEqual([]);
    expect(scheduled).toMatchObject({ accounts: 0, postedAlert: false });
    expect(elsewhere).toMatchObject({ accounts: 0, postedAlert: false });
  });

  it('left the ledger and the balance as they were (budget 0)', () => {
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
  });
});
