import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOLVE_SHOWS } from '../../../src/domain/watch/lookup.ts';
import { createRuntimeLoader, createScheduledJobs } from '../../../src/roots/runtime.ts';
import { ALICE, APPROVER, type Bot, CHANNEL, startBot, TEAM } from '../../support/bot.ts';

/*
 * Paid name look-ups of scheduled watch checks, through the hourly handler (inline), the real
 * `/events watch` words, DynamoDB Local and the simulator: within the month's budget set by an
 * approver, once per account and month, charged through the write-ahead record and the ledger.
 */

const LAMBDA = { getRemainingTimeInMillis: () => 240_000 };
const PAID_PATH = '/external/exhibitors/search-by-company-name';
/** The worker's timeout and then some: the reconciler settles a charge started that long ago. */
const LATER_MS = 20 * 60_000;
const OTHER = 'C0OTHER';
/** The re-delivered check's own channel. */
const REDELIVERED = 'C0REDELIVER';
/** A channel shared through Slack Connect, and a guest there: an admin of their own organisation. */
const SHARED = 'C0SHARED';
const GUEST = 'U0GUESTADMIN';

describe('paid name look-ups of a scheduled watch check', () => {
  let bot: Bot;
  /** Companies the service knows that exhibit at no upcoming show: the free path cannot find them. */
  let unlisted: string[];

  const paidSearches = (name?: string) =>
    bot.sim
      .requests()
      .filter((request) => request.path === PAID_PATH)
      .filter((request) => !name || JSON.stringify(request.body).includes(name));
  const serviceLedger = () => bot.sim.ledger(bot.apiKey);
  const ledger = () => bot.store.ledger.listSince(TEAM, new Date(Date.now() - 86_400_000));
  const company = (index: number) => {
    const name = unlisted[index];
    if (!name) throw new Error(`no unlisted company ${index}`);
    return name;
  };
  const keyOf = (name: string) => `name:${name.toLowerCase()}`;
  const account = (name: string, channelId = CHANNEL) =>
    bot.store.watchLists.account(TEAM, channelId, keyOf(name));
  /** The scheduled checks of a runtime read from the environment with `changes` (a policy changed). */
  const jobsWith = async (changes: Record<string, string>) =>
    createScheduledJobs(await createRuntimeLoader({ ...process.env, ...changes }, { logger: bot.logger })());

  /** The hourly run, with the channel due now (as a changed watch is). */
  async function scheduledCheck() {
    await bot.store.watchLists.setStatus(TEAM, CHANNEL, 'on');
    const { handler } = await import('../../../handlers/watch.ts');
    return handler({ source: 'aws.events', 'detail-type': 'Scheduled Event' }, LAMBDA);
  }

  async function watch(names: string[], channelId = CHANNEL) {
    await bot.command(`watch add ${names.join(', ')}`, { ...ALICE, channelId });
    await bot.idle();
  }

  async function setBudget(credits: number, channelId = CHANNEL) {
    await bot.command(`watch budget ${credits}`, { ...APPROVER, channelId });
    await bot.idle();
  }

  beforeAll(async () => {
    bot = await startBot({ channels: [REDELIVERED, SHARED] });
    Object.assign(process.env, bot.scheduledEnv(), { SPEND_APPROVERS: APPROVER.userId });
    delete process.env.WATCH_QUEUE_URL;
    const names = bot.sim.seed.exhibitors.map((x) => x.companyName.toLowerCase());
    // The free path searches the first RESOLVE_SHOWS upcoming shows' exhibitor lists
    const soonest = bot.sim.events
      .filter((e) => e.dateStart >= bot.sim.today)
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart))
      .slice(0, RESOLVE_SHOWS);
    const upcoming = new Set(soonest.map((e) => e.id));
    unlisted = bot.sim.seed.exhibitors
      .filter((x) => !x.eventIds.some((id) => upcoming.has(id)))
      .map((x) => x.companyName)
      .filter((name) => names.filter((other) => other === name.toLowerCase()).length === 1)
      .slice(0, 7);
    expect(unlisted).toHaveLength(7);
  });
  afterAll(() => bot.close());

  it('with budget 0, a name the free path misses is never looked up paid; the ledger is unchanged', async () => {
    // Prepare
    await watch([company(0)]);

    // Act
    const run = await scheduledCheck();

    // Assess
    expect(run).toMatchObject({ checked: 1, failed: 0 });
    expect(paidSearches()).toEqual([]);
    expect(serviceLedger()).toEqual([]);
    expect(await ledger()).toEqual([]);
    expect((await account(company(0)))?.resolution).toBe('not-found');
  });

  it('with 100 credits set by an approver, one paid look-up finds the company, charged 50 once and pre-approved in the ledger', async () => {
    // Prepare: a second account the service has no record of at all
    await watch(['Qzxv Nowhere Holdings']);
    await setBudget(100);
    const budgetAnswer = JSON.stringify(bot.last().blocks);

    // Act
    await scheduledCheck();

    // Assess
    expect(budgetAnswer).toContain('pre-approved');
    expect(paidSearches(company(0))).toHaveLength(1);
    expect(paidSearches('Qzxv')).toHaveLength(1);
    expect(serviceLedger().map((entry) => entry.credits)).toEqual([50]);
    const found = bot.sim.seed.exhibitors.find((x) => x.companyName === company(0));
    expect(await account(company(0))).toMatchObject({ resolution: 'resolved', exhibitorIds: [found?.id] });
    expect((await account('Qzxv Nowhere Holdings'))?.resolution).toBe('not-found');
    const entries = await ledger();
    expect(entries).toHaveLength(2);
    expect(entries.find((entry) => entry.credits > 0)).toMatchObject({
      status: 'charged',
      action: 'exhibitor-search',
      credits: 50,
      requestedBy: APPROVER.userId,
      confirmedBy: APPROVER.userId,
      channelId: CHANNEL,
      preApproval: { kind: 'watch-budget', setBy: APPROVER.userId, channelId: CHANNEL },
    });
    // the search that found nothing gave its reservation back
    expect((await bot.store.watchLists.settings(TEAM, CHANNEL))?.spentCredits).toBe(50);
  });

  it('a second check that month makes no second paid look-up of the same account', async () => {
    // Act
    await scheduledCheck();

    // Assess
    expect(paidSearches('Qzxv')).toHaveLength(1);
    expect(serviceLedger()).toHaveLength(1);
  });

  it('stops paying once the month’s budget is spent, and says so in /events watch status', async () => {
    // Prepare
    await watch([company(1), company(2)]);

    // Act
    await scheduledCheck();
    await bot.command('watch status', ALICE);
    await bot.idle();

    // Assess: 50 were left, so one of the two is looked up and the other waits for next month
    expect(paidSearches(company(1)).length + paidSearches(company(2)).length).toBe(1);
    expect(serviceLedger().map((entry) => entry.credits)).toEqual([50, 50]);
    expect((await bot.store.watchLists.settings(TEAM, CHANNEL))?.spentCredits).toBe(100);
    expect(JSON.stringify(bot.last().blocks)).toContain('100 of 100 a month');
  });

  it('a re-delivered check (same id) charges nothing more', async () => {
    // Prepare: a channel of its own, so no account of an earlier test is eligible in the same check
    // (one left waiting for budget would compete with the new account for the credits left)
    const channelId = REDELIVERED;
    await setBudget(200, channelId);
    await watch([company(3)], channelId);
    const jobs = createScheduledJobs(await createRuntimeLoader(process.env, { logger: bot.logger })());
    const request = { teamId: TEAM, channelId, checkId: 'redelivered-check' };

    // Act: delivered twice at once, then once more
    const [first, second] = await Promise.all([
      jobs.checkWatchedChannel(request),
      jobs.checkWatchedChannel(request),
    ]);
    const charged = serviceLedger().length;
    await watch([company(4)], channelId);
    const third = await jobs.checkWatchedChannel(request);

    // Assess: the one that ran looked the new account up once; the re-deliveries did nothing
    expect([first, second, third].filter((summary) => summary.alreadyChecked)).toHaveLength(2);
    expect(paidSearches(company(3))).toHaveLength(1);
    expect(paidSearches(company(4))).toEqual([]);
    expect(serviceLedger()).toHaveLength(charged);
  });

  it('a check that dies between the write-ahead record and the settle is settled by the reconciler', async () => {
    // Prepare: a channel of its own (so no other account of earlier tests is also eligible and
    // charged at the same time), whose check's settle never returns, as if its Lambda died after the
    // service call
    const channelId = 'C0DIES';
    await watch([company(4)], channelId);
    await setBudget(1000, channelId);
    const before = serviceLedger().length;
    const runtime = await createRuntimeLoader(process.env, { logger: bot.logger })();
    let died: () => void = () => {};
    const dead = new Promise<void>((resolve) => (died = resolve));
    const charges = {
      ...runtime.store.charges,
      settle: () => {
        died();
        return new Promise<never>(() => {});
      },
    };
    const jobs = createScheduledJobs({ ...runtime, store: { ...runtime.store, charges } });

    // Act
    void jobs.checkWatchedChannel({ teamId: TEAM, channelId, checkId: 'dies-mid-charge' });
    await dead;
    const pending = (await ledger()).filter((entry) => entry.status === 'pending');
    await bot.reconcile(LATER_MS);

    // Assess: charged by the service, counted in the ledger as unconfirmed at its price; nothing pending
    expect(paidSearches(company(4))).toHaveLength(1);
    expect(serviceLedger()).toHaveLength(before + 1);
    expect(pending).toHaveLength(1);
    const entries = await ledger();
    expect(entries.filter((entry) => entry.status === 'pending')).toEqual([]);
    const charged = entries.filter((entry) => entry.status === 'charged' || entry.status === 'unknown');
    const service = serviceLedger().reduce((sum, entry) => sum + entry.credits, 0);
    expect(charged.reduce((sum, entry) => sum + entry.credits, 0)).toBe(service);
    expect(entries.find((entry) => entry.status === 'unknown')).toMatchObject({
      credits: 50,
      preApproval: { setBy: APPROVER.userId },
    });
  });

  it('a budget set by someone no longer an approver or admin pre-approves nothing', async () => {
    // Prepare: the approver sets the other channel's budget, then is no longer a spend approver
    await setBudget(100, OTHER);
    await watch([company(5)], OTHER);
    const charged = serviceLedger().length;
    const entries = (await ledger()).length;
    const jobs = await jobsWith({ SPEND_APPROVERS: 'U0SOMEONEELSE' });

    // Act
    const summary = await jobs.checkWatchedChannel({
      teamId: TEAM,
      channelId: OTHER,
      checkId: 'setter-left',
    });

    // Assess: free look-ups only; no paid call, nothing in either ledger, the budget untouched
    expect(summary).toMatchObject({ accounts: 1, failed: 0 });
    expect(paidSearches(company(5))).toEqual([]);
    expect(serviceLedger()).toHaveLength(charged);
    expect(await ledger()).toHaveLength(entries);
    expect((await account(company(5), OTHER))?.resolution).toBe('not-found');
    expect((await bot.store.watchLists.settings(TEAM, OTHER))?.spentCredits).toBe(0);
  });

  it('the daily cap refuses a paid look-up: nothing charged, the month’s reservation given back', async () => {
    // Prepare: the setter is an approver again, and the day's cap is below the look-up's price
    const charged = serviceLedger().length;
    const jobs = await jobsWith({ DAILY_CREDIT_CAP: '10' });

    // Act
    await jobs.checkWatchedChannel({ teamId: TEAM, channelId: OTHER, checkId: 'over-the-cap' });
    await bot.command('watch status', { ...ALICE, channelId: OTHER });
    await bot.idle();

    // Assess: the service was not called and charged nothing; the budget shows nothing spent
    expect(paidSearches(company(5))).toEqual([]);
    expect(serviceLedger()).toHaveLength(charged);
    expect((await ledger()).filter((entry) => entry.channelId === OTHER && entry.credits > 0)).toEqual([]);
    expect((await bot.store.watchLists.settings(TEAM, OTHER))?.spentCredits).toBe(0);
    expect((await account(company(5), OTHER))?.resolution).toBe('not-found');
    const status = JSON.stringify(bot.last(OTHER).blocks);
    expect(status).toContain('0 of 100 a month');
    expect(status).toContain('1 not found yet');
  });

  it('a look-up the daily cap refused was never run: a later check runs it once the cap allows', async () => {
    // Prepare
    const charged = serviceLedger().length;
    const jobs = createScheduledJobs(await createRuntimeLoader(process.env, { logger: bot.logger })());

    // Act
    await jobs.checkWatchedChannel({ teamId: TEAM, channelId: OTHER, checkId: 'under-the-cap' });

    // Assess
    expect(paidSearches(company(5))).toHaveLength(1);
    expect(serviceLedger()).toHaveLength(charged + 1);
    expect((await account(company(5), OTHER))?.resolution).toBe('resolved');
  });

  it('a budget set by a guest from another organisation pre-approves nothing, though they are listed as an approver', async () => {
    // Prepare: a budget stored as set by the guest (as one could be before guests were refused it)
    bot.slack.addUser(GUEST, { name: 'guest', tz: 'UTC', teamId: 'T0GUESTORG', isAdmin: true });
    await watch([company(6)], SHARED);
    await bot.store.watchLists.setBudget(TEAM, SHARED, 100, GUEST);
    const charged = serviceLedger().length;
    const jobs = await jobsWith({ SPEND_APPROVERS: `${APPROVER.userId},${GUEST}` });

    // Act
    await jobs.checkWatchedChannel({ teamId: TEAM, channelId: SHARED, checkId: 'guest-budget' });

    // Assess: free look-ups only; no paid call, nothing charged
    expect(paidSearches(company(6))).toEqual([]);
    expect(serviceLedger()).toHaveLength(charged);
    expect((await account(company(6), SHARED))?.resolution).toBe('not-found');
    expect((await bot.store.watchLists.settings(TEAM, SHARED))?.spentCredits).toBe(0);
  });
});
