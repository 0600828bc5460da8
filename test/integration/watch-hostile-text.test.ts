import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../local/slack/fake-slack.ts';
import { KNOWN_COMPANY_NAME } from '../../simulator/server.ts';
import { ALICE, type Bot, CHANNEL, startBot } from '../support/bot.ts';
import { liveTokensIn, renderedTexts } from '../support/live-tokens.ts';

/*
 * A watch label pasted by a member and a show name from the service, both hostile, through the real
 * `/events watch` import form, a check and the alert it posts: neither pings anyone nor links anywhere, in
 * the blocks or in the notification text.
 */

const HOSTILE_SHOW = '<!here> Fintech Expo <https://evil.example/claim|Claim your badge>';

const alertsIn = (bot: Bot) =>
  bot.messages(CHANNEL).filter((m) => m.visibleTo === undefined && /will exhibit/.test(m.text));

describe('hostile text in a watch alert', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('posts an alert whose notification text and blocks ping no one and link nowhere', async () => {
    // Prepare: an account added by a domain a member wrote `<!channel>` in front of
    const company = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    if (!company) throw new Error('the seed has no known company');
    // (`watch add` refuses markup; the import form reads its boxes as typed)
    await bot.command('watch import', ALICE);
    const value = `<!channel>@${company.domain}`;
    await bot.slack.submitView({
      user: ALICE.userId,
      values: { 'accounts-1': { value: { type: 'plain_text_input', value } } },
    });
    await bot.idle();
    const show = bot.sim.events.find((e) => e.dateStart > bot.sim.today && !company.eventIds.includes(e.id));
    if (!show) throw new Error('no upcoming show left');
    show.name = HOSTILE_SHOW;
    bot.sim.changeData({ kind: 'appear', exhibitor: company.id, event: show.id });

    // Act
    await bot.command('watch check', ALICE);
    await bot.idle();

    // Assess
    const [alert] = alertsIn(bot) as [SlackMessage];
    expect(alert.text).toContain('Fintech Expo');
    expect(alert.text).toContain('acme');
    expect(liveTokensIn(alert.text)).toEqual([]);
    expect(renderedTexts(alert.blocks).flatMap(liveTokensIn)).toEqual([]);
  });
});
