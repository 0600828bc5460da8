import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDigestRun } from '../../../src/domain/digest.ts';
import { HORIZON_DAYS } from '../../../src/domain/digest-events.ts';
import { localDate } from '../../../src/time/local-time.ts';
import { createEisClient } from '../../../src/eis/index.ts';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { createScheduledLoader } from '../../../src/roots/runtime.ts';
import { createStore, type Store } from '../../../src/store/index.ts';
import { type DigestFilters } from '../../../src/domain/ports/index.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

const OTHER = 'C0OTHER';
const GONE = 'C0GONE';
const HOUR = 60 * 60_000;
const FIT_ROUTE = '/external/events/fit-score';
const RANK_ROUTE = '/external/events/rank';

/** The digests posted in a channel (scheduled or not), oldest first. */
const digestsIn = (bot: Bot, channel: string) =>
  bot.messages(channel).filter((m) => m.visibleTo === undefined && /Digest for/.test(m.text));

const eventIdsOf = (message: SlackMessage) =>
  [...JSON.stringify(message.blocks).matchAll(/\\"eventId\\":\\"([^\\]+)\\"/g)].map((match) => match[1]);

/** The event ids the digest offers an Unlock button for. */
const unlockOffersOf = (message: SlackMessage): string[] =>
  message.blocks.flatMap((block) => {
    const { type, elements } = block as { type: string; elements?: { action_id?: string; value?: string }[] };
    if (type !== 'actions' || !elements) return [];
    return elements
      .filter((element) => element.action_id === 'digest.unlock')
      .map((element) => (JSON.parse(element.value ?? '{}') as { eventId: string }).eventId);
  });

describe('the daily digest', () => {
  let bot: Bot;
  let store: Store;
  // 18:00 UTC today: 08:00 the next day on Kiritimati (UTC+14), 08:00 today in Honolulu (UTC-10),
  // 03:00 the next day in Tokyo (UTC+9).
  const t0 = Date.parse(`${new Date().toISOString().slice(0, 10)}T18:00:00Z`);
  let at = t0 - HOUR;
  const clock = () => new Date(at);
  const run = async () =>
    (await createScheduledLoader(bot.scheduledEnv(), { logger: bot.logger, now: clock })()).runDigests();

  const subscribe = (
    teamId: string,
    channelId: string,
    time: string,
    timeZone: string,
    filters: DigestFilters = {},
  ) =>
    store.digestSubscriptions.put({
      teamId,
      channelId,
      time,
      timeZone,
      filters,
      createdBy: ALICE.userId,
      nextRunAt: nextDigestRun({ time, timeZone }, clock()),
    });

  beforeAll(async () => {
    bot = await startBot();
    store = createStore({ client: bot.table.client, tableName: bot.table.tableName, now: clock });
    at = t0 - HOUR;
    await subscribe(TEAM, CHANNEL, '08:00', 'Pacific/Kiritimati');
    await subscribe(TEAM, OTHER, '08:00', 'Pacific/Honolulu', { keywords: 'expo' });
    await subscribe('T0SECOND', CHANNEL, '09:00', 'Asia/Tokyo');
  });
  afterAll(() => bot.close());

  it('is not posted before its local time, in any zone', async () => {
    // Act
    at = t0 - 30 * 60_000;
    const summary = await run();

    // Assess
    expect(summary.posted).toBe(0);
    expect(digestsIn(bot, CHANNEL)).toEqual([]);
    expect(digestsIn(bot, OTHER)).toEqual([]);
  });

  it('is posted once per channel per local day, even when the schedule fires twice at once', async () => {
    // Act: two runs together, at 08:01 on Kiritimati (already tomorrow in UTC terms) and in Honolulu
    at = t0 + 60_000;
    const [first, second] = await Promise.all([run(), run()]);

    // Assess
    expect(first.posted + second.posted).toBe(2);
    expect(digestsIn(bot, CHANNEL)).toHaveLength(1);
    expect(digestsIn(bot, OTHER)).toHaveLength(1);
    // Kiritimati's local date is a day ahead of UTC: the day claimed is the local one
    const kiritimatiDay = localDate(new Date(t0), 'Pacific/Kiritimati');
    expect(kiritimatiDay).not.toBe(new Date(t0).toISOString().slice(0, 10));
    expect(await store.digestSubscriptions.claimDay(TEAM, CHANNEL, kiritimatiDay)).toBe(false);
  });

  it('is not posted again the same day by a later run, and Tokyo’s comes at its own time', async () => {
    // Act: 15:00 UTC the next day is 00:00 in Tokyo (not yet), then 09:01 in Tokyo
    at = t0 + 2 * HOUR;
    const later = await run();
    at = t0 + 6 * HOUR + 60_000;
    const tokyo = await run();

    // Assess
    expect(later.posted).toBe(0);
    expect(tokyo.posted).toBe(1);
    expect(digestsIn(bot, CHANNEL)).toHaveLength(2);
    expect(digestsIn(bot, OTHER)).toHaveLength(1);
  });

  it('shows the simulator’s balance, spending, events (best fit first) and finished unlocks', async () => {
    // Prepare: a charge in the last 24 h and one before, a finished unlock in this channel
    at = t0 + 23 * HOUR;
    await store.ledger.record({
      teamId: TEAM,
      requestedBy: ALICE.userId,
      confirmedBy: ALICE.userId,
      action: 'unlock',
      credits: 2000,
      at: new Date(at - HOUR),
    });
    await store.ledger.record({
      teamId: TEAM,
      requestedBy: ALICE.userId,
      confirmedBy: ALICE.userId,
      action: 'emails',
      credits: 45,
      at: new Date(at - 2 * HOUR),
    });
    await store.ledger.record({
      teamId: TEAM,
      requestedBy: ALICE.userId,
      confirmedBy: ALICE.userId,
      action: 'unlock',
      credits: 9999,
      at: new Date(at - 30 * HOUR),
    });
    await store.unlockTasks.create({
      taskId: '990001',
      kind: 'email',
      teamId: TEAM,
      channelId: CHANNEL,
      threadTs: '1700000123.000456',
      requestedBy: ALICE.userId,
      personnelIds: ['1', '2', '3'],
      skipped: [],
    });
    await store.unlockTasks.markResultPosted('990001', {
      owner: 'test',
      outcome: { status: 'completed', unlocked: 2, notUnlocked: 1, skipped: 0 },
    });
    const fitCallsBefore = bot.sim.requests().filter((r) => r.path === FIT_ROUTE).length;
    const rankCallsBefore = bot.sim.requests().filter((r) => r.path === RANK_ROUTE).length;

    // Act: the next morning on Kiritimati (08:00 local; Honolulu's comes at the same instant)
    at = t0 + 24 * HOUR + 60_000;
    const summary = await run();

    // Assess
    expect(summary.posted).toBe(2);
    expect(digestsIn(bot, CHANNEL)).toHaveLength(3);
    const digest = digestsIn(bot, CHANNEL).at(-1);
    if (!digest) throw new Error('no digest');
    const text = visibleText(digest);
    expect(digest.warnings).toEqual([]);
    expect(text).toContain(`${bot.sim.balance(bot.apiKey).toLocaleString('en-US')} credits* available`);
    expect(text).toContain('2,045 credits spent in the last 24 h');
    expect(text).not.toContain('would not cover');
    expect(text).toContain('(every day at 08:00 Pacific/Kiritimati)');
    expect(text).not.toContain('to get this every morning');
    expect(text).toContain('https://slack.com/archives/C0GENERAL/p1700000123000456');
    expect(text).toContain('2 unlocked, 1 not');

    // The events are the simulator's upcoming ones in the 90 days from the local date, best fit first
    const today = localDate(new Date(at), 'Pacific/Kiritimati');
    const horizon = new Date(Date.parse(`${today}T00:00:00Z`) + HORIZON_DAYS * 24 * HOUR)
      .toISOString()
      .slice(0, 10);
    const upcoming = new Set(
      bot.sim.events.filter((e) => e.dateStart >= today && e.dateStart <= horizon).map((e) => e.eventId),
    );
    const shown = eventIdsOf(digest);
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(upcoming.has(id ?? '')).toBe(true);
    const eis = createEisClient({ baseUrl: bot.sim.url, apiKey: bot.apiKey });
    const scores = [];
    for (const id of new Set(shown)) scores.push((await eis.events.fitScore(id ?? '')).score);
    await eis.close();
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(text).toContain(`Fit *${scores[0]?.toFixed(1)}/10*`);
    // At most one rank call per digest (two in this run; Tokyo's, earlier this UTC day, cached the
    // scores of the candidates it ranked), no fit-score call
    const fitCalls =
      bot.sim.requests().filter((r) => r.path === FIT_ROUTE).length - fitCallsBefore - scores.length;
    expect(fitCalls).toBe(0);
    const rankCalls = bot.sim.requests().filter((r) => r.path === RANK_ROUTE).length - rankCallsBefore;
    expect(rankCalls).toBeLessThanOrEqual(2);
  });

  it('disables the subscription of a channel that is gone, with a log line, and the others go on', async () => {
    // Prepare
    at = t0 + 30 * HOUR;
    await subscribe(TEAM, GONE, '01:00', 'UTC');
    await subscribe(TEAM, OTHER, '01:00', 'UTC');
    const before = digestsIn(bot, OTHER).length;

    // Act: 01:01 UTC
    at = Date.parse(`${new Date(t0 + 31 * HOUR).toISOString().slice(0, 10)}T01:01:00Z`);
    const summary = await run();

    // Assess
    expect(summary.disabled).toBe(1);
    expect(digestsIn(bot, OTHER)).toHaveLength(before + 1);
    const gone = await store.digestSubscriptions.get(TEAM, GONE);
    expect(gone).toMatchObject({ status: 'disabled', disabledReason: 'channel_not_found' });
    expect(
      bot.logger.lines.some((line) => line.includes('digest subscription disabled') && line.includes(GONE)),
    ).toBe(true);
  });
});

describe('/events digest on | off | status | now, through the Slack handler', () => {
  let bot: Bot;
  let store: Store;

  beforeAll(async () => {
    bot = await startBot({ balance: 1500 });
    store = createStore({ client: bot.table.client, tableName: bot.table.tableName });
  });
  afterAll(() => bot.close());

  const run = async (text: string) => {
    await bot.command(`digest ${text}`);
    await bot.idle();
  };

  const lastEphemeral = () =>
    bot
      .messages()
      .filter((m) => m.visibleTo === ALICE.userId)
      .at(-1)?.text ?? '';

  it('subscribes at 09:00 in the requester’s Slack time zone when none is given', async () => {
    // Act
    await run('on keywords:expo');

    // Assess
    expect(await store.digestSubscriptions.get(TEAM, CHANNEL)).toMatchObject({
      time: '09:00',
      timeZone: 'Europe/Berlin',
      filters: { keywords: 'expo' },
      status: 'active',
    });
    expect(lastEphemeral()).toMatch(
      /Daily digest on: every day at 09:00 Europe\/Berlin \(0[78]:00 UTC today\) — events matching “expo”\./,
    );
  });

  it('repeats the schedule in words, on and in status', async () => {
    // Act
    await run('on 08:30 Europe/Berlin keywords:fintech country:Germany');
    const on = lastEphemeral();
    await run('status');

    // Assess: Berlin is UTC+1 or UTC+2, whichever today is
    const schedule =
      /Daily digest on: every day at 08:30 Europe\/Berlin \(0[67]:30 UTC today\) — events in Germany matching “fintech”\./;
    expect(on).toMatch(schedule);
    expect(lastEphemeral()).toMatch(schedule);
    expect(on).not.toContain('matching all');
  });

  it('keeps a given time and zone, says how it read the zone, and says the same in status', async () => {
    // Act
    await run('on 07:30 EST');
    const on = lastEphemeral();
    await run('status');

    // Assess
    const schedule =
      /Daily digest on: every day at 07:30 America\/New_York \(1[12]:30 UTC today\) — all upcoming events\./;
    expect(on).toMatch(schedule);
    expect(on).toContain('Note: EST read as America/New_York.');
    expect(lastEphemeral()).toMatch(schedule);
  });

  it('posts a digest in the channel now, with a warning when an event unlock would not be covered', async () => {
    // Act
    await run('now');

    // Assess
    const digest = digestsIn(bot, CHANNEL).at(-1);
    expect(digest?.visibleTo).toBeUndefined();
    const text = visibleText(digest ?? { text: '', blocks: [] });
    expect(text).toContain('would not cover an event unlock (2,000 credits)');
    expect(digest?.warnings).toEqual([]);
    // The channel has a digest: the footer says when the next comes, and how to change or stop it
    expect(text).toContain('Next digest <!date^');
    expect(text).toContain('(every day at 07:30 America/New_York)');
    expect(text).toContain('`/events digest off` to stop');
    expect(text).not.toContain('to get this every morning');
    expect(text).toContain('*Upcoming events*, next 90 days');
  });

  it('offers no Unlock for an event this workspace unlocked, and lists the unlock with its name', async () => {
    // Prepare: an event the last digest offered, unlocked from this channel an hour ago
    const before = digestsIn(bot, CHANNEL).at(-1);
    const eventId = before ? unlockOffersOf(before)[0] : undefined;
    if (!eventId) throw new Error('the digest offered no unlock');
    await store.ledger.record({
      teamId: TEAM,
      channelId: CHANNEL,
      requestedBy: ALICE.userId,
      confirmedBy: ALICE.userId,
      action: 'event-unlock',
      credits: 2000,
      eventId,
      at: new Date(Date.now() - HOUR),
    });

    // Act
    await run('now');

    // Assess
    const digest = digestsIn(bot, CHANNEL).at(-1);
    if (!digest) throw new Error('no digest');
    expect(unlockOffersOf(digest)).not.toContain(eventId);
    expect(eventIdsOf(digest)).toContain(eventId);
    const text = visibleText(digest);
    expect(text).toContain('Unlocks finished in the last 24 h');
    expect(text).toMatch(
      new RegExp(
        `• Event unlock — \\*[^*]+\\* \\(\`${eventId}\`\\) · 2,000 credits · asked by <@${ALICE.userId}>`,
      ),
    );
  });

  it('turns off, and says when there was nothing to turn off', async () => {
    // Act
    await run('off');
    const first = lastEphemeral();
    await run('off');

    // Assess
    expect(first).toContain('Daily digest off');
    expect(lastEphemeral()).toContain('no digest in this channel');
    expect(await store.digestSubscriptions.get(TEAM, CHANNEL)).toBeNull();
  });

  it('offers a daily digest in a one-off digest only where there is none', async () => {
    // Act
    await run('now');

    // Assess
    const text = visibleText(digestsIn(bot, CHANNEL).at(-1) ?? { text: '', blocks: [] });
    expect(text).toContain('`/events digest on` to get this every morning');
    expect(text).not.toContain('Next digest');
  });
});

describe('ranking the digest’s events: one rank call a day, whichever channel asks', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** `/events digest now` in `channel`: the digest, and the service requests it made. */
  const digestNow = async (channel: string) => {
    const before = bot.sim.requests().length;
    await bot.command('digest now', { ...ALICE, channelId: channel });
    await bot.idle();
    const digest = digestsIn(bot, channel).at(-1);
    if (!digest) throw new Error(`no digest in ${channel}`);
    return { digest, during: bot.sim.requests().slice(before) };
  };

  it('ranks its events with one rank call and no fit-score call', async () => {
    // Act
    const { digest, during } = await digestNow(CHANNEL);

    // Assess
    const rank = during.filter((r) => r.path === RANK_ROUTE);
    expect(rank).toHaveLength(1);
    expect(during.filter((r) => r.path === FIT_ROUTE)).toHaveLength(0);
    // Every event shown was one of the ranked candidates, shown in the service's order with its score
    const ranked = (rank[0]?.body as { event_ids: string[] }).event_ids;
    const shown = [...new Set(eventIdsOf(digest))];
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(ranked).toContain(id);
    const eis = createEisClient({ baseUrl: bot.sim.url, apiKey: bot.apiKey });
    const { items } = await eis.events.rank({ eventIds: ranked });
    await eis.close();
    expect(shown).toEqual(items.map((item) => item.event_id).slice(0, shown.length));
    expect(visibleText(digest)).toContain(`Fit *${((items[0]?.match_score ?? 0) * 10).toFixed(1)}/10*`);
  });

  it('a second digest the same day, in another channel, reuses the scores: no rank call, same events', async () => {
    // Act
    const first = digestsIn(bot, CHANNEL).at(-1);
    if (!first) throw new Error('no first digest');
    const { digest, during } = await digestNow(OTHER);

    // Assess
    expect(during.filter((r) => r.path === RANK_ROUTE)).toHaveLength(0);
    expect(during.filter((r) => r.path === FIT_ROUTE)).toHaveLength(0);
    expect(eventIdsOf(digest)).toEqual(eventIdsOf(first));
    const fits = (message: SlackMessage) => visibleText(message).match(/Fit \*\d+\.\d\/10\*/g);
    expect(fits(digest)).toEqual(fits(first));
  });
});

describe('ranking the digest’s events when the rank call fails', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('falls back to fit scores, at most ten calls', async () => {
    // Prepare: the rank call fails (every retry too)
    bot.sim.injectFault({ kind: 'status', status: 500, route: `POST ${RANK_ROUTE}`, times: 10 });
    const before = bot.sim.requests().length;

    // Act
    await bot.command('digest now');
    await bot.idle();
    bot.sim.clearFaults();

    // Assess
    const during = bot.sim.requests().slice(before);
    expect(during.filter((r) => r.path === RANK_ROUTE).length).toBeGreaterThanOrEqual(1);
    const digest = digestsIn(bot, CHANNEL).at(-1);
    if (!digest) throw new Error('no digest');
    const text = visibleText(digest);
    expect(text).toContain('*Upcoming events*');
    expect(text).toMatch(/Fit \*\d+\.\d\/10\*/);
    expect(during.filter((r) => r.path === FIT_ROUTE).length).toBeGreaterThan(0);
    expect(during.filter((r) => r.path === FIT_ROUTE).length).toBeLessThanOrEqual(10);
    expect(bot.logger.lines.some((line) => line.includes('ranking unavailable for the digest'))).toBe(true);
  });
});
