import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf, type SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { KNOWN_COMPANY_NAME, type SeededExhibitor } from '../../../simulator/server.ts';
import { accountKey } from '../../../src/domain/watch/index.ts';
import { keys } from '../../../src/store/keys.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * A watched account resolved before the bot kept the service's company name (its item holds only the
 * name as typed) is named by the service's company everywhere once the watch's next check has read
 * the exhibitor's free profile: once, stored, never by a charging call.
 */

/** The known company as a member typed it: lower case, with its legal form. */
const TYPED = `${KNOWN_COMPANY_NAME.toLowerCase()} inc`;
const KEY = accountKey(TYPED) ?? '';

describe('a watched account resolved before names were kept', () => {
  let bot: Bot;
  let company: SeededExhibitor;

  const say = async (text: string): Promise<string> => {
    await bot.command(text, ALICE);
    await bot.idle();
    const answers = bot.messages(CHANNEL).filter((m) => m.visibleTo !== undefined);
    return visibleText(answers[answers.length - 1] as SlackMessage);
  };
  const profileReads = () =>
    bot.sim.requests().filter((request) => request.path === '/external/exhibitors/profile').length;

  beforeAll(async () => {
    bot = await startBot();
    const known = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    if (!known) throw new Error('the seed has no known company');
    company = known;
    await say(`watch add ${TYPED}`);
    // The item as an older bot stored it: resolved to the exhibitor, the company's name not kept.
    const { client, tableName } = bot.table;
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.watchAccount(TEAM, CHANNEL, KEY),
        UpdateExpression: 'REMOVE companyName',
      }),
    );
  });
  afterAll(() => bot.close());

  it('is named by the service’s company everywhere after the next check, learned once and free', async () => {
    // Prepare: the old item shows the name as typed
    expect(await bot.store.watchLists.account(TEAM, CHANNEL, KEY)).toMatchObject({
      resolution: 'resolved',
      exhibitorIds: [company.id],
    });
    expect((await bot.store.watchLists.account(TEAM, CHANNEL, KEY))?.companyName).toBeUndefined();
    expect(await say('watch list')).toContain(`*${TYPED}*`);
    const balance = bot.sim.balance(bot.apiKey);
    const reads = profileReads();

    // Act
    await say('watch check');
    await say('watch check');

    // Assess: learned by one free read and stored
    expect((await bot.store.watchLists.account(TEAM, CHANNEL, KEY))?.companyName).toBe(KNOWN_COMPANY_NAME);
    expect(profileReads() - reads).toBe(1);
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);

    // Assess: the list, where the accounts will be, Home, the plan and the export name the company
    const show = bot.sim.events
      .filter((e) => company.eventIds.includes(e.id) && e.dateStart > bot.sim.today)
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart))[0];
    const list = await say('watch list');
    const shows = await say('watch shows');
    await bot.slack.openHome(ALICE.userId);
    await bot.idle();
    const home = JSON.stringify(bot.slack.home(ALICE.userId)?.view);
    await bot.command(`plan add ${show?.eventId ?? ''}`);
    await bot.idle();
    await bot.command('plan');
    await bot.idle();
    const plan = visibleText(bot.last());
    const muted = await say(`watch mute ${TYPED}`);
    await say('watch export');
    const [file] = bot.messages(appDmOf(ALICE.userId)).flatMap((m) => m.files ?? []);

    for (const text of [list, shows, home, plan, muted]) {
      expect(text).toContain(KNOWN_COMPANY_NAME);
      expect(text.replaceAll(`watch unmute ${TYPED}`, '')).not.toContain(TYPED);
    }
    expect(plan).toContain(`Watched accounts: ${KNOWN_COMPANY_NAME}`);
    expect(file?.content).toContain(`${TYPED},${KNOWN_COMPANY_NAME},target,resolved,${company.id},`);
  });
});
