import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountKey } from '../../../src/domain/watch/index.ts';
import { WATCH_IN_FLIGHT_PER_KEY } from '../../../src/eis/index.ts';
import { createScheduledLoader } from '../../../src/roots/runtime.ts';
import { createWatchRun } from '../../../src/roots/watch-runtime.ts';
import { type DistributedBot, startDistributedBot, testWorkspace } from '../../support/distributed-bot.ts';

/*
 * A watch's first day, through the hourly run's handler (inline: no queue configured), against
 * DynamoDB Local, the simulator and the fake Slack: the service calls it makes per account (counted
 * at the simulator), how many it has in flight for one key, and a Retry-After from the service.
 */

const LAMBDA = { getRemainingTimeInMillis: () => 600_000 };
const WATCHED_BY = 'U0SOMEONE';

/** Names no exhibitor list has: each is searched in every upcoming show and not found. */
const unknownNames = (count: number, from: number) =>
  Array.from({ length: count }, (_, n) => `Zqvx Nonesuch ${String(from + n).padStart(4, '0')}`);

/** Companies the service knows: every `step`-th of its exhibitors, from `from`. */
const knownNames = (bot: DistributedBot, count: number, from: number, step = 3) =>
  Array.from(
    { length: count },
    (_, n) => bot.sim.seed.exhibitors[(from + n * step) % bot.sim.seed.exhibitors.length]?.companyName ?? '',
  );

const watchNames = (bot: DistributedBot, teamId: string, channelId: string, labels: string[]) =>
  bot.store.watchLists.addAccounts(
    teamId,
    channelId,
    labels.map((label) => ({ key: accountKey(label) ?? '', label, kind: 'target' as const })),
    WATCHED_BY,
  );

const hourlyRun = (bot: DistributedBot) =>
  createWatchRun(createScheduledLoader(bot.env(), { logger: bot.logger }), bot.env())(LAMBDA);

async function accountsOf(bot: DistributedBot, teamId: string, channels: string[]) {
  const lists = await Promise.all(
    channels.map((channel) => bot.store.watchLists.allAccounts(teamId, channel)),
  );
  return lists.flat();
}

describe('a channel of 100 accounts on its first day', () => {
  const ONE = testWorkspace('T0FIRST');
  let bot: DistributedBot;
  let key: string;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [ONE] });
    expect(await bot.install(ONE.teamId)).toBe(200);
    key = bot.newKey(20_000);
    await bot.connectKey(ONE.teamId, key);
    await watchNames(bot, ONE.teamId, ONE.channel, [...knownNames(bot, 90, 0), ...unknownNames(10, 0)]);
  });
  afterAll(() => bot.close());

  it('looks every account up in at most 3 service calls per account, spending nothing', async () => {
    // Prepare
    const before = bot.sim.requests().length;

    // Act
    const summary = await hourlyRun(bot);

    // Assess
    const calls = bot.sim.requests().length - before;
    const accounts = await accountsOf(bot, ONE.teamId, [ONE.channel]);
    console.log(`first day: ${calls} service calls for ${accounts.length} accounts`);
    expect(summary).toMatchObject({ due: 1, failed: 0, outOfTime: false });
    expect(accounts).toHaveLength(100);
    expect(accounts.filter((account) => account.resolution === 'pending')).toEqual([]);
    expect(accounts.filter((account) => account.resolution === 'resolved').length).toBeGreaterThan(45);
    expect(calls / accounts.length).toBeLessThanOrEqual(3);
    expect(bot.sim.ledger(key)).toEqual([]);
  }, 120_000);
});

describe('four channels of one workspace on their first day, the service at 50 ms a call', () => {
  const FOUR = testWorkspace('T0FOUR');
  const channels = ['C0FOUR1', 'C0FOUR2', 'C0FOUR3', 'C0FOUR4'];
  let bot: DistributedBot;
  let key: string;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [FOUR] });
    expect(await bot.install(FOUR.teamId)).toBe(200);
    key = bot.newKey(20_000);
    await bot.connectKey(FOUR.teamId, key);
    for (const [n, channel] of channels.entries())
      await watchNames(bot, FOUR.teamId, channel, [
        ...knownNames(bot, 12, n * 40, 7),
        ...unknownNames(3, n * 10),
      ]);
  });
  afterAll(() => {
    bot.sim.setLatency(0);
    return bot.close();
  });

  it('checks the channels together, never more than the key’s watch share of calls at once', async () => {
    // Prepare
    bot.sim.setLatency(50);

    // Act
    const summary = await hourlyRun(bot);

    // Assess
    const peak = bot.sim.maxInFlight(key);
    console.log(`peak calls in flight for the key: ${peak}`);
    expect(summary).toMatchObject({ due: 4, failed: 0, outOfTime: false });
    expect(peak).toBeLessThanOrEqual(WATCH_IN_FLIGHT_PER_KEY);
    // More than one slice's look-ups at once: the channels were checked together, not one by one.
    expect(peak).toBeGreaterThan(3);
    const accounts = await accountsOf(bot, FOUR.teamId, channels);
    expect(accounts.filter((account) => account.resolution === 'pending')).toEqual([]);
  }, 120_000);
});

describe('the service answers 429 with Retry-After: 2 during a first day', () => {
  const LIMITED = testWorkspace('T0LIMITED');
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [LIMITED] });
    expect(await bot.install(LIMITED.teamId)).toBe(200);
    await bot.connectKey(LIMITED.teamId, bot.newKey(20_000));
    await watchNames(bot, LIMITED.teamId, LIMITED.channel, [
      ...knownNames(bot, 30, 1, 11),
      ...unknownNames(5, 50),
    ]);
  });
  afterAll(() => {
    bot.sim.setLatency(0);
    bot.sim.clearFaults();
    return bot.close();
  });

  it('starts no call of the key until the 2 s are over, then finishes the check', async () => {
    // Prepare: the first exhibitor list read is turned away (after others have started)
    bot.sim.setLatency(50);
    const before = bot.sim.requests().length;
    bot.sim.injectFault({
      kind: 'status',
      status: 429,
      route: 'GET /external/exhibitors/list',
      retryAfterSeconds: 2,
    });

    // Act
    const summary = await hourlyRun(bot);

    // Assess
    const calls = bot.sim.requests().slice(before);
    const limited = calls.find((call) => call.path === '/external/exhibitors/list');
    if (!limited) throw new Error('no exhibitor list was read');
    const turnedAwayAt = Date.parse(limited.at);
    // The 429's own answer takes 50 ms; calls already started then may still arrive just after it.
    const duringWait = calls.filter((call) => {
      const at = Date.parse(call.at);
      return at > turnedAwayAt + 400 && at < turnedAwayAt + 1_900;
    });
    expect(duringWait).toEqual([]);
    expect(summary).toMatchObject({ due: 1, failed: 0 });
    const accounts = await accountsOf(bot, LIMITED.teamId, [LIMITED.channel]);
    expect(accounts.filter((account) => account.resolution === 'pending')).toEqual([]);
  }, 120_000);
});
