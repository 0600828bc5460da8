import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOLVE_SHOWS } from '../../../src/domain/watch/lookup.ts';
import { accountKey } from '../../../src/domain/watch/names.ts';
import { createRuntimeLoader, createScheduledJobs } from '../../../src/roots/runtime.ts';
import { ALICE, APPROVER, type Bot, CHANNEL, startBot, TEAM } from '../../support/bot.ts';
import { scanAll } from '../../support/dynamo.ts';

/*
 * The watch's paid name look-up runs at most once per account, month and workspace, through the real
 * `/events watch` words, the scheduled check's jobs (their clock moved), DynamoDB Local, the simulator
 * and the fake Slack: whatever removing and adding the account again, a second channel, a retried
 * check or the expiry of the look-up's confirmation do. And what it finds is watched from then on:
 * the shows the company was already on are not announced as new.
 */

const PAID_PATH = '/external/exhibitors/search-by-company-name';
const DAY_MS = 86_400_000;
const SECOND = 'C0SECOND';
const THIRD = 'C0THIRD';
const RETRIED = 'C0RETRIED';

/**
 * Two moments of the current UTC month 9 days apart: a look-up's confirmation is kept 7 days past
 * its 60 s deadline, so by the later one it has expired.
 */
const monthStart = new Date(new Date().toISOString().slice(0, 8) + '01T12:00:00Z').getTime();
const FIRST = new Date(monthStart + DAY_MS);
const LATER = new Date(FIRST.getTime() + 9 * DAY_MS);
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

describe('one paid look-up per account, month and workspace', () => {
  let bot: Bot;
  /** Companies the free path cannot find on any day the tests look from, each with a show ahead. */
  let unlisted: { id: string; companyName: string; eventIds: string[] }[];
  /** Events no free search of these tests reads: a company appearing there stays unlisted. */
  let unsearched: Set<string>;

  const paidSearches = (name: string) =>
    bot.sim
      .requests()
      .filter((request) => request.path === PAID_PATH)
      .filter((request) => JSON.stringify(request.body).includes(name));
  const charged = () => bot.sim.ledger(bot.apiKey).map((entry) => entry.credits);
  const company = (index: number) => {
    const found = unlisted[index];
    if (!found) throw new Error(`no unlisted company ${index}`);
    return found;
  };
  const keyOf = (name: string) => accountKey(name) ?? '';
  const account = (name: string, channelId = CHANNEL) =>
    bot.store.watchLists.account(TEAM, channelId, keyOf(name));
  /** The channel's messages that name the company (its alerts; the command answers are ephemeral). */
  const alertsAbout = (name: string, channelId = CHANNEL) =>
    bot.messages(channelId).filter((message) => !message.visibleTo && message.text?.includes(name));

  /** The scheduled functions' runtime with the clock running from `at`. */
  function runtimeAt(at: Date) {
    const started = Date.now();
    const now = () => new Date(at.getTime() + Date.now() - started);
    return createRuntimeLoader(process.env, { logger: bot.logger, now })();
  }
  const jobsAt = async (at: Date) => createScheduledJobs(await runtimeAt(at));
  /** A show's name as the alert's blocks hold it (mrkdwn-escaped). */
  const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  /** What DynamoDB's TTL would have deleted by `at` (DynamoDB Local never deletes by TTL). */
  async function expireItemsBy(at: Date) {
    const items = await scanAll(bot.table);
    const expired = items.filter(
      (item) => typeof item.expiresAt === 'number' && item.expiresAt * 1000 < at.getTime(),
    );
    for (const { pk, sk } of expired)
      await bot.table.client.send(new DeleteCommand({ TableName: bot.table.tableName, Key: { pk, sk } }));
    return expired.length;
  }

  async function say(text: string, actor = ALICE, channelId = CHANNEL) {
    await bot.command(text, { ...actor, channelId });
    await bot.idle();
  }

  beforeAll(async () => {
    bot = await startBot({ channels: [SECOND, THIRD, RETRIED] });
    Object.assign(process.env, bot.scheduledEnv(), { SPEND_APPROVERS: APPROVER.userId });
    delete process.env.WATCH_QUEUE_URL;
    // The free path searches the first RESOLVE_SHOWS upcoming shows (a few more here, for equal dates)
    const searchedFrom = (day: string) =>
      bot.sim.events
        .filter((event) => event.dateStart >= day)
        .sort((a, b) => a.dateStart.localeCompare(b.dateStart))
        .slice(0, RESOLVE_SHOWS + 5)
        .map((event) => event.id);
    const days = [bot.sim.today, dayOf(FIRST), dayOf(LATER)];
    const searched = new Set(days.flatMap(searchedFrom));
    unsearched = new Set(bot.sim.events.filter((event) => !searched.has(event.id)).map((event) => event.id));
    const names = bot.sim.seed.exhibitors.map((exhibitor) => exhibitor.companyName.toLowerCase());
    const later = new Set(bot.sim.events.filter((event) => event.dateStart >= dayOf(LATER)).map((e) => e.id));
    unlisted = bot.sim.seed.exhibitors
      .filter((exhibitor) => !exhibitor.eventIds.some((id) => searched.has(id)))
      .filter((exhibitor) => exhibitor.eventIds.some((id) => later.has(id)))
      .filter(({ companyName }) => names.filter((name) => name === companyName.toLowerCase()).length === 1)
      .slice(0, 3);
    expect(unlisted).toHaveLength(3);
  });
  afterAll(() => bot.close());

  it('a company found only by the paid look-up is watched from the shows it is on: no alert for them, one for a show after', async () => {
    // Prepare
    const { companyName, id, eventIds } = company(0);
    await say(`watch add ${companyName}`);
    await say('watch budget 100', APPROVER);
    const jobs = await jobsAt(FIRST);

    // Act: the check that finds it, then one after it appears at another show
    const first = await jobs.checkWatchedChannel({ teamId: TEAM, channelId: CHANNEL, checkId: 'finds' });
    const alertsAtFind = alertsAbout(companyName).length;
    const next = bot.sim.events.find(
      (event) => unsearched.has(event.id) && event.exhibitorCount > 0 && !eventIds.includes(event.id),
    );
    if (!next) throw new Error('no show for the company to appear at');
    bot.sim.changeData({ kind: 'appear', exhibitor: id, event: next.id });
    const second = await (
      await jobsAt(new Date(FIRST.getTime() + 3_600_000))
    ).checkWatchedChannel({
      teamId: TEAM,
      channelId: CHANNEL,
      checkId: 'after-it-appears',
    });

    // Assess: found and charged once; its shows at the find taken as known; only the new one alerted
    expect(paidSearches(companyName)).toHaveLength(1);
    expect(charged()).toEqual([50]);
    expect(await account(companyName)).toMatchObject({ resolution: 'resolved', exhibitorIds: [id] });
    expect(first).toMatchObject({ postedAlert: false, appeared: 0 });
    expect(alertsAtFind).toBe(0);
    expect(second).toMatchObject({ postedAlert: true, appeared: 1 });
    const alerts = alertsAbout(companyName);
    expect(alerts).toHaveLength(1);
    expect(JSON.stringify(alerts[0]?.blocks)).toContain(escaped(next.name));
  });

  it('removed and added again after its look-up’s confirmation expired, no second paid look-up that month; the first one’s find is used', async () => {
    // Prepare: removed, a week and more passes (the confirmation expires), added again
    const { companyName, id } = company(0);
    const alertsBefore = alertsAbout(companyName).length;
    await say(`watch remove ${companyName}`);
    expect(await expireItemsBy(LATER)).toBeGreaterThan(0);
    await say(`watch add ${companyName}`);
    const jobs = await jobsAt(LATER);

    // Act
    const summary = await jobs.checkWatchedChannel({ teamId: TEAM, channelId: CHANNEL, checkId: 're-added' });

    // Assess: one paid look-up, one charge; the account found again, free, and nothing announced
    expect(paidSearches(companyName)).toHaveLength(1);
    expect(charged()).toEqual([50]);
    expect(await account(companyName)).toMatchObject({ resolution: 'resolved', exhibitorIds: [id] });
    expect(summary).toMatchObject({ postedAlert: false, appeared: 0 });
    expect(alertsAbout(companyName)).toHaveLength(alertsBefore);
  });

  it('two channels of the workspace watching one name at once: one paid look-up, whose find both use', async () => {
    // Prepare: each channel with a budget of its own
    const { companyName, id } = company(1);
    for (const channelId of [SECOND, THIRD]) {
      await say('watch budget 100', APPROVER, channelId);
      await say(`watch add ${companyName}`, ALICE, channelId);
    }
    const before = charged().length;
    const jobs = await jobsAt(FIRST);
    const check = (channelId: string, checkId: string) =>
      jobs.checkWatchedChannel({ teamId: TEAM, channelId, checkId });

    // Act: both checks at once, then each channel's next check
    await Promise.all([check(SECOND, 'both-1'), check(THIRD, 'both-1')]);
    await Promise.all([check(SECOND, 'both-2'), check(THIRD, 'both-2')]);

    // Assess: one look-up, charged once to one channel's budget; both channels watch the exhibitor
    expect(paidSearches(companyName)).toHaveLength(1);
    expect(charged().slice(before)).toEqual([50]);
    for (const channelId of [SECOND, THIRD]) {
      expect(await account(companyName, channelId)).toMatchObject({
        resolution: 'resolved',
        exhibitorIds: [id],
      });
      expect(alertsAbout(companyName, channelId)).toEqual([]);
    }
    const spent = await Promise.all(
      [SECOND, THIRD].map(
        async (channelId) => (await bot.store.watchLists.settings(TEAM, channelId))?.spentCredits,
      ),
    );
    expect(spent.sort()).toEqual([0, 50]);
  });

  it('a check that fails after its paid look-up is retried without a second one, and the retry keeps what it found', async () => {
    // Prepare: the first run cannot store what it looked up (as if it died there)
    const { companyName, id } = company(2);
    await say('watch budget 100', APPROVER, RETRIED);
    await say(`watch add ${companyName}`, ALICE, RETRIED);
    const before = charged().length;
    const runtime = await runtimeAt(FIRST);
    const failing = {
      ...runtime.store.watchLists,
      saveLookup: () => Promise.reject(new Error('the store is gone')),
    };
    const dying = createScheduledJobs({ ...runtime, store: { ...runtime.store, watchLists: failing } });
    const request = { teamId: TEAM, channelId: RETRIED, checkId: 'retried' };

    // Act: the check fails (its claim given back), and the queue delivers it again
    await expect(dying.checkWatchedChannel(request)).rejects.toThrow('the store is gone');
    const retry = await (await jobsAt(FIRST)).checkWatchedChannel(request);

    // Assess
    expect(retry.alreadyChecked).toBe(false);
    expect(paidSearches(companyName)).toHaveLength(1);
    expect(charged().slice(before)).toEqual([50]);
    expect(await account(companyName, RETRIED)).toMatchObject({ resolution: 'resolved', exhibitorIds: [id] });
    expect(alertsAbout(companyName, RETRIED)).toEqual([]);
  });
});
