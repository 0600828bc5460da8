import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf, type SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { ALICE, BOB, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

/* Export CSV on `/events watch list`: the channel's accounts and their upcoming shows, in one file. */

/** The known company as a member types it: lower case, with its legal form; the service's name differs. */
const TYPED = `${KNOWN_COMPANY_NAME.toLowerCase()} inc`;

const linesOf = (content: string) => content.replace(/\r\n$/, '').split('\r\n');

describe('the watch list’s Export CSV', () => {
  let bot: Bot;
  const filesIn = (channel: string) => bot.slack.messages(channel).filter((m) => (m.files ?? []).length > 0);

  beforeAll(async () => {
    bot = await startBot({ channelNames: { [CHANNEL]: 'events' } });
    await bot.command(`watch add ${TYPED}, competitor:Nowhere Widgets`);
    await bot.idle();
  });
  afterAll(() => bot.close());

  it('sends the list and each account’s upcoming shows to the clicker’s DM, spending nothing', async () => {
    // Prepare: the company's upcoming shows, and the private list with its button
    const balance = bot.sim.balance(bot.apiKey);
    const company = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    const upcoming = bot.sim.events.filter(
      (e) => company?.eventIds.includes(e.id) && e.dateStart >= bot.sim.today,
    );
    expect(upcoming.length).toBeGreaterThan(0);
    await bot.command('watch list');
    await bot.idle();
    const list: SlackMessage = structuredClone(bot.last());
    expect(list.visibleTo).toBe(ALICE.userId);
    expect(buttonsOf(list).map(({ button }) => button.text.text)).toContain('Export CSV');

    // Act
    await bot.click(list, 'watch.export');
    await bot.idle();

    // Assess
    const [upload] = filesIn(appDmOf(ALICE.userId));
    const [header, ...rows] = linesOf(upload?.files?.[0]?.content ?? '');
    expect(header).toBe(
      'account,company_name,kind,resolution,exhibitor_id,event_id,show,start,end,city,muted',
    );
    // The name as typed, and beside it the service's company name.
    const companyRows = rows.filter((row) =>
      row.startsWith(`${TYPED},${KNOWN_COMPANY_NAME},target,resolved,${company?.id},`),
    );
    expect(companyRows).toHaveLength(upcoming.length);
    for (const show of upcoming)
      expect(companyRows.some((row) => row.includes(`,${show.name},${show.dateStart},`))).toBe(true);
    expect(rows).toContain('Nowhere Widgets,,competitor,not-found,,,,,,,no');
    expect(upload?.text).toContain(`2 accounts <#${CHANNEL}> watches`);
    // A file's title is plain text: the channel by its name, not its id.
    expect(upload?.files?.[0]).toMatchObject({
      title: 'Watch list of #events',
      name: 'watch-list-events.csv',
    });
    expect(filesIn(CHANNEL)).toEqual([]);
    expect(visibleText(bot.last())).toContain('direct messages with the app');
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
  });

  it('exports nothing for a channel that watches nothing', async () => {
    // Act
    await bot.command('watch export', { ...BOB, channelId: 'C0OTHER' });
    await bot.idle();

    // Assess
    expect(filesIn(appDmOf(BOB.userId))).toEqual([]);
    expect(visibleText(bot.last('C0OTHER'))).toContain('watches no accounts: there is nothing to export');
  });
});
