import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf } from '../../../local/fake-slack/fake-slack.ts';
import { KNOWN_COMPANY_NAME, type SeededEvent, type SeededExhibitor } from '../../../simulator/server.ts';
import { csvField } from '../../../src/domain/csv.ts';
import { PLAN_CSV_HEADER } from '../../../src/slack/features/plan/export.ts';
import { fitBand } from '../../../src/slack/views/fit-band.ts';
import { ALICE, type Bot, startBot } from '../../support/bot.ts';

/*
 * `/events plan export` through the real handlers: each show's row gives its fit, its country and the
 * channel's watched accounts there, as the card reads them (no further service call per row).
 */

const linesOf = (content: string) => content.replace(/\r\n$/, '').split('\r\n');

describe('the plan’s CSV', () => {
  let bot: Bot;
  let show: SeededEvent;
  let target: SeededExhibitor;
  let competitor: SeededExhibitor;

  beforeAll(async () => {
    bot = await startBot();
    const known = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    const upcoming = bot.sim.events
      .filter((e) => known?.eventIds.includes(e.id) && e.dateStart > bot.sim.today)
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart));
    const other = bot.sim.seed.exhibitors.find(
      (x) => x !== known && upcoming[0] && x.eventIds.includes(upcoming[0].id),
    );
    if (!known || !upcoming[0] || !other)
      throw new Error('the seed has no two exhibitors at one upcoming show');
    [target, show, competitor] = [known, upcoming[0], other];
    // A comma in a company's name: the cell is quoted whole, the names kept apart.
    competitor.companyName = `${competitor.companyName}, Inc.`;
    await bot.command(`watch add ${target.companyName}, competitor:${competitor.domain}`);
    await bot.idle();
    await bot.command(`plan add ${show.eventId}`);
    await bot.idle();
  });
  afterAll(() => bot.close());

  it('gives each show its fit, its country and the channel’s watched accounts there', async () => {
    // Prepare: the fit the service gives the show
    const response = await fetch(`${bot.sim.url}/external/events/fit-score`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bot.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: show.eventId }),
    });
    const fit = (await response.json()) as { score: number; recommendation: string };
    const balance = bot.sim.balance(bot.apiKey);

    // Act
    await bot.command('plan export');
    await bot.idle();

    // Assess
    const [upload] = bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0);
    const [header, ...rows] = linesOf(upload?.files?.[0]?.content ?? '');
    expect(header).toBe(PLAN_CSV_HEADER.join(','));
    expect(header).toContain(',city,country,fit_score,fit_band,watched_accounts,');
    const row = rows.find((r) => r.startsWith('show,') && r.includes(`,${show.eventId},`)) ?? '';
    const watched = [`${competitor.companyName} (competitor)`, target.companyName].sort((a, b) =>
      a.localeCompare(b),
    );
    expect(row).toContain(
      [
        show.city,
        show.country,
        fit.score,
        fitBand(fit.score, fit.recommendation),
        csvField(watched.join('; ')),
      ].join(','),
    );
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
  });
});
