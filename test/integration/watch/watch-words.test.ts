import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { KNOWN_COMPANY_NAME, type SeededExhibitor } from '../../../simulator/server.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * The watch's words through the real handlers: an account added by its domain named by its company
 * once resolved (answer, list, Home, compare, plan), a name nothing matches offered its near matches with
 * This one, hints that name no other company's domain, and counts and times said once and right.
 */

const lastAnswer = (bot: Bot): SlackMessage => {
  const answers = bot.messages(CHANNEL).filter((m) => m.visibleTo !== undefined);
  const answer = answers[answers.length - 1];
  if (!answer) throw new Error('no private answer yet');
  return structuredClone(answer);
};

/** The exhibitor ids the This one buttons of `message` choose. */
const choicesOn = (message: SlackMessage) =>
  buttonsOf(message)
    .filter(({ button }) => button.action_id === ACTION_IDS.watchChoose)
    .map(({ button }) => (JSON.parse(button.value ?? '{}') as { exhibitorId: string }).exhibitorId);

describe('the watch’s words', () => {
  let bot: Bot;
  let company: SeededExhibitor;
  let retail: SeededExhibitor;

  const say = async (text: string) => {
    await bot.command(text, ALICE);
    await bot.idle();
    return lastAnswer(bot);
  };

  beforeAll(async () => {
    bot = await startBot();
    const known = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    const other = bot.sim.seed.exhibitors.find((x) => x.companyName !== KNOWN_COMPANY_NAME);
    if (!known || !other) throw new Error('the seed has too few exhibitors');
    company = known;
    // `Zorblax Retail` exhibits at the soonest show; no one else's name holds `Zorblax`.
    retail = other;
    retail.companyName = 'Zorblax Retail';
    const soonest = bot.sim.events
      .filter((e) => e.dateStart >= bot.sim.today)
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart))[0];
    if (!soonest) throw new Error('no upcoming show');
    bot.sim.changeData({ kind: 'appear', exhibitor: retail.id, event: soonest.id });
  });
  afterAll(() => bot.close());

  it('names an account added by its domain by its company once resolved, the domain as a detail', async () => {
    // Act
    const added = visibleText(await say(`watch add ${company.domain}`));
    const list = visibleText(await say('watch list'));
    await bot.slack.openHome(ALICE.userId);
    await bot.idle();
    const home = JSON.stringify(bot.slack.home(ALICE.userId)?.view);
    const shows = bot.sim.events
      .filter((e) => company.eventIds.includes(e.id) && e.dateStart >= bot.sim.today)
      .slice(0, 2);
    expect(shows).toHaveLength(2);
    await bot.command(`compare ${shows.map((show) => show.eventId).join(' ')}`);
    await bot.idle();
    const compare = visibleText(bot.last());
    await bot.command(`plan add ${shows[0]?.eventId ?? ''}`);
    await bot.idle();
    await bot.command('plan');
    await bot.idle();
    const plan = visibleText(bot.last());

    // Assess
    const named = `*${company.companyName}* (${company.domain}, target)`;
    expect(added).toContain(`${named} exhibits at`);
    expect(list).toContain(`${named} exhibits at`);
    expect(home).toContain(named);
    expect(compare).toContain(`: ${company.companyName}`);
    expect(compare).not.toContain(`: ${company.domain}`);
    expect(plan).toContain(`Watched accounts: ${company.companyName}`);
  });

  it('offers the near matches of a name nothing matches, and This one sets the account to it', async () => {
    // Act
    const added = await say('watch add competitor: Zorblax');

    // Assess: the near match named, with its id and a This one button; nothing charged
    const text = visibleText(added);
    expect(text).toContain('*Zorblax* (competitor): no exhibitor record has exactly this name');
    expect(text).toContain(
      `Did you mean Zorblax Retail, exhibitor ${retail.id}, for *Zorblax* (competitor)?`,
    );
    expect(choicesOn(added)).toEqual([retail.id]);
    expect(text).toContain('Charged nothing');

    // Act: This one
    const only = added.blocks.filter((block) => choicesOn({ ...added, blocks: [block] })[0] === retail.id);
    await bot.click({ ...added, blocks: only }, ACTION_IDS.watchChoose, ALICE);
    await bot.idle();

    // Assess
    expect(visibleText(lastAnswer(bot))).toContain(`Watching Zorblax Retail`);
    const account = await bot.store.watchLists.account(TEAM, CHANNEL, 'name:zorblax');
    expect(account).toMatchObject({
      resolution: 'resolved',
      exhibitorIds: [retail.id],
      companyName: 'Zorblax Retail',
      chosenBy: ALICE.userId,
    });
    expect(visibleText(await say('watch list'))).toContain('*Zorblax Retail* (competitor) exhibits at');

    // Act: the same This one again (a stale click) changes nothing
    await bot.click({ ...added, blocks: only }, ACTION_IDS.watchChoose, ALICE);
    await bot.idle();
    expect(visibleText(lastAnswer(bot))).toContain(`is already matched to exhibitor ${retail.id}`);
    expect(await bot.store.watchLists.account(TEAM, CHANNEL, 'name:zorblax')).toEqual(account);
  });

  it('offers a near match to a name one letter or a plural away from it', async () => {
    for (const typed of ['Zorblax Retails', 'Zorblax Retal']) {
      // Act
      const added = await say(`watch add ${typed}`);

      // Assess
      expect(visibleText(added)).toContain(
        `Did you mean Zorblax Retail, exhibitor ${retail.id}, for *${typed}*`,
      );
      expect(choicesOn(added)).toEqual([retail.id]);
    }
  });

  it('reads a budget written the European way back as a "did you mean", and sets nothing', async () => {
    // Prepare
    const before = await bot.store.watchLists.settings(TEAM, CHANNEL);

    // Act
    const dots = JSON.stringify((await bot.command('watch budget 12.000', ALICE)).json);
    const euros = JSON.stringify((await bot.command('watch budget €1,5k', ALICE)).json);
    await bot.idle();

    // Assess
    expect(dots).toContain('Did you mean `12,000`?');
    expect(euros).toContain('Did you mean `1,500`?');
    expect(await bot.store.watchLists.settings(TEAM, CHANNEL)).toEqual(before);
  });

  it('asks "did you mean `competitor:Stripe`?" for a competitor written without its colon, and stores nothing', async () => {
    // Prepare
    const before = (await bot.store.watchLists.allAccounts(TEAM, CHANNEL)).length;

    // Act
    const ack = await bot.command('watch add Acme Tools, competitor Stripe', ALICE);
    await bot.idle();

    // Assess
    expect(JSON.stringify(ack.json)).toContain('did you mean `competitor:Stripe`?');
    const after = await bot.store.watchLists.allAccounts(TEAM, CHANNEL);
    expect(after).toHaveLength(before);
    expect(JSON.stringify(after)).not.toContain('Stripe');
  });

  it('names no other company’s domain in a hint, and none to a domain', async () => {
    // Act
    const text = visibleText(await say('watch add Zzyzx Quuxworks, nosuch-company.example'));

    // Assess
    expect(text).not.toContain('globex.com');
    expect(text).toContain(
      '*nosuch-company.example* (target): no exhibitor record has this domain yet. It is looked for again at every check.',
    );
    expect(text).toContain('*Zzyzx Quuxworks* (target): no exhibitor record matches this name yet');
    expect(text).toContain('adding the company by its own domain (`/events watch add <its domain>`)');
    // Every domain the answer names is one the user wrote.
    const domains = text.match(/\b[\w-]+\.(?:com|example)\b/g) ?? [];
    expect(new Set(domains)).toEqual(new Set(['nosuch-company.example']));
  });

  it('says one new appearance in the singular, and the last check’s time with its zone once', async () => {
    // Prepare: the company appears at one more upcoming show
    const show = bot.sim.events.find((e) => e.dateStart > bot.sim.today && !company.eventIds.includes(e.id));
    if (!show) throw new Error('no upcoming show left');
    bot.sim.changeData({ kind: 'appear', exhibitor: company.id, event: show.id });

    // Act
    const checked = visibleText(await say('watch check'));
    const status = visibleText(await say('watch status'));

    // Assess
    expect(checked).toContain('1 new appearance: see the alert');
    expect(status).toMatch(/\*Last check:\* \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} UTC\\n/);
    expect(status).not.toContain('UTC UTC');
  });
});
