import type { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountKey } from '../../../src/domain/watch/index.ts';
import {
  createRuntimeLoader,
  createScheduledJobs,
  createScheduledLoader,
} from '../../../src/roots/runtime.ts';
import { watchCheckOf } from '../../../src/scheduling/watch-dispatch.ts';
import { createWatchConsumer, createWatchRun } from '../../../src/roots/watch-runtime.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { createKillSwitch } from '../../support/kill-switch.ts';
import { type DistributedBot, startDistributedBot, testWorkspace } from '../../support/distributed-bot.ts';

/*
 * A watch check is bounded work: a big list is checked a slice at a time, every channel's first slice
 * before any channel's second, each account stored as it is looked up. Through the hourly run's
 * handler (inline: no queue configured), against DynamoDB Local, the simulator and the fake Slack.
 */

// Sorted first, and the run's random start pinned to the first workspace: the big list goes first.
const BIG = testWorkspace('T0ALPHA');
const SMALL = testWorkspace('T0BETA');
const SERVICE_MS_PER_CALL = 1_200;
const LAMBDA = { getRemainingTimeInMillis: () => 600_000 };

/** Names no exhibitor list has: each is searched in every upcoming show and not found. */
const unknownNames = (count: number, from = 0) =>
  Array.from({ length: count }, (_, n) => `Zqvx Nonesuch ${String(from + n).padStart(4, '0')}`);

const watchNames = (bot: DistributedBot, teamId: string, channelId: string, labels: string[]) =>
  bot.store.watchLists.addAccounts(
    teamId,
    channelId,
    labels.map((label) => ({ key: accountKey(label) ?? '', label, kind: 'target' as const })),
    'U0SOMEONE',
  );

const alertsIn = (bot: DistributedBot, channel: string) =>
  bot.slack.messages(channel).filter((message) => message.visibleTo === undefined);

/** The slices the check logged for `teamId`: their looked, remaining and service call counts. */
const slicesOf = (bot: DistributedBot, teamId: string) =>
  bot.logger.lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.message === 'watch check slice' && line.teamId === teamId)
    .map(({ slice, looked, remaining, serviceCalls }) => ({ slice, looked, remaining, serviceCalls }));

describe('a 300-name list beside a one-account channel of another workspace, the service at 1.2 s a call', () => {
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [BIG, SMALL] });
    for (const workspace of [BIG, SMALL]) {
      expect(await bot.install(workspace.teamId)).toBe(200);
      await bot.connectKey(workspace.teamId, bot.newKey(20_000));
    }
    // The small channel's company, told its shows by a first check; then it appears at another show.
    await watchNames(bot, SMALL.teamId, SMALL.channel, [KNOWN_COMPANY_NAME]);
    await createWatchRun(createScheduledLoader(bot.env(), { logger: bot.logger }), bot.env())();
    bot.sim.newExhibitorAppears();
    await bot.store.watchLists.setStatus(SMALL.teamId, SMALL.channel, 'on'); // due at once
    await watchNames(bot, BIG.teamId, BIG.channel, unknownNames(300));
  });
  afterAll(async () => {
    bot.sim.setLatency(0);
    vi.restoreAllMocks();
    await bot.close();
  });

  it('posts the small channel’s alert after one slice of the big list, which stores what it looked up', async () => {
    // Prepare: the hourly run's Lambda, its time up once the small channel's alert is out
    bot.sim.setLatency(SERVICE_MS_PER_CALL);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const run = createWatchRun(createScheduledLoader(bot.env(), { logger: bot.logger }), bot.env());
    let alertAfterMs: number | undefined;
    const started = performance.now();
    const seeAlert = () => {
      if (alertAfterMs === undefined && alertsIn(bot, SMALL.channel).length > 0) {
        alertAfterMs = performance.now() - started;
        // Timed up to here only: the rest of the big slice is asserted in calls and stored
        // accounts, so its remaining calls need not wait 1.2 s each (it saves about 30 s).
        bot.sim.setLatency(0);
      }
      return alertAfterMs !== undefined;
    };
    const watchForAlert = setInterval(seeAlert, 100);
    let giveUp: NodeJS.Timeout | undefined;

    // Act: at most 90 s (the old check ran the whole big list first)
    const summary = await Promise.race([
      run({ getRemainingTimeInMillis: () => (seeAlert() ? 0 : 600_000) }),
      new Promise<undefined>((resolve) => (giveUp = setTimeout(() => resolve(undefined), 90_000))),
    ]).finally(() => {
      clearInterval(watchForAlert);
      clearTimeout(giveUp);
    });

    // Assess
    console.log(`the small channel's alert after ${((alertAfterMs ?? Infinity) / 1000).toFixed(1)} s`);
    console.log('the big list’s slices', JSON.stringify(slicesOf(bot, BIG.teamId)));
    expect(alertAfterMs).toBeLessThan(90_000);
    expect(JSON.stringify(alertsIn(bot, SMALL.channel))).toContain(KNOWN_COMPANY_NAME);
    expect(summary).toMatchObject({ workspaces: 2, due: 2, checked: 2, outOfTime: true });
    const [first] = slicesOf(bot, BIG.teamId);
    expect(first?.serviceCalls).toBeLessThanOrEqual(81);
    const stored = await bot.store.watchLists.allAccounts(BIG.teamId, BIG.channel);
    const looked = stored.filter((account) => account.resolution === 'not-found');
    expect(looked.length).toBe(first?.looked);
    expect(looked.length).toBeGreaterThan(0);
    // The rest is left for the next slice: the channel is still due.
    expect(await bot.store.watchLists.dueIn(BIG.teamId, { now: new Date(), limit: 5 })).toHaveLength(1);
  }, 95_000);
});

describe('a slice killed mid-way', () => {
  let bot: DistributedBot;
  const names = unknownNames(12, 500);

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [BIG] });
    expect(await bot.install(BIG.teamId)).toBe(200);
    await bot.connectKey(BIG.teamId, bot.newKey(20_000));
    await watchNames(bot, BIG.teamId, BIG.channel, names);
  });
  afterAll(() => bot.close());

  it('loses only its own work: the next run skips what it stored and finishes the check', async () => {
    // Prepare: the hourly run's check of the channel, in a Lambda that dies once two accounts are stored
    const settings = await bot.store.watchLists.settings(BIG.teamId, BIG.channel);
    if (!settings) throw new Error('no watch settings');
    const request = watchCheckOf(settings, new Date());
    const runtime = await createRuntimeLoader(bot.env(), { logger: bot.logger })(BIG.teamId);
    const kill = createKillSwitch(
      Number.POSITIVE_INFINITY,
      (trace) => trace.filter((step) => step === 'store.watchLists.saveLookup').length >= 2,
    );
    const dying = createScheduledJobs({
      ...runtime,
      store: kill.wrap(runtime.store, 'store'),
      eis: kill.wrap(runtime.eis, 'eis'),
    });
    const keywordsSearched = (from: number) =>
      bot.sim
        .requests()
        .slice(from)
        .flatMap((call) => (typeof call.query.keyword === 'string' ? [call.query.keyword] : []));

    // Act: the slice dies; the next hourly run comes after the slice's lease (15 minutes)
    expect(await kill.race(dying.checkWatchedChannel(request))).toBe('killed');
    const storedByTheDead = (await bot.store.watchLists.allAccounts(BIG.teamId, BIG.channel)).filter(
      (account) => account.checkedIn === request.checkId,
    );
    const afterKill = bot.sim.requests().length;
    const later = () => new Date(Date.now() + 16 * 60_000);
    const summary = await createWatchRun(
      createScheduledLoader(bot.env(), { logger: bot.logger, now: later }),
      bot.env(),
      { now: later },
    )({ getRemainingTimeInMillis: () => 240_000 });

    // Assess
    // Two, or three when the slice's last write was applied as it died.
    expect(storedByTheDead.length).toBeGreaterThanOrEqual(2);
    expect(storedByTheDead.length).toBeLessThan(names.length);
    expect(summary).toMatchObject({ due: 1, failed: 0, outOfTime: false });
    expect(summary.checked).toBeGreaterThan(1);
    const searchedAgain = new Set(keywordsSearched(afterKill));
    for (const account of storedByTheDead)
      expect(searchedAgain.has(account.key.slice('name:'.length))).toBe(false);
    const stored = await bot.store.watchLists.allAccounts(BIG.teamId, BIG.channel);
    expect(stored.map((account) => account.resolution)).toEqual(names.map(() => 'not-found'));
    const next = (await bot.store.watchLists.settings(BIG.teamId, BIG.channel))?.nextCheckAt ?? '';
    expect(Date.parse(next) - Date.now()).toBeGreaterThan(23 * 60 * 60_000);
  });
});

/** A FIFO queue as the hourly run and the consumer send to it: the bodies and groups, in order. */
function fifoQueue() {
  const messages: { body: string; group: string }[] = [];
  const send = (command: SendMessageBatchCommand) => {
    for (const entry of command.input.Entries ?? [])
      messages.push({ body: entry.MessageBody ?? '', group: entry.MessageGroupId ?? '' });
    return Promise.resolve({ Successful: [], Failed: [] });
  };
  return { messages, sqs: { send } as never };
}

describe('queue mode: a big list and a small one in the same workspace', () => {
  let bot: DistributedBot;
  const SECOND = { ...BIG, channel: 'C0ALPHASMALL' };
  const env = () => ({ ...bot.env(), WATCH_QUEUE_URL: 'https://sqs.local/000000000000/watch.fifo' });

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [BIG, SECOND] });
    expect(await bot.install(BIG.teamId)).toBe(200);
    await bot.connectKey(BIG.teamId, bot.newKey(20_000));
    await watchNames(bot, BIG.teamId, SECOND.channel, [KNOWN_COMPANY_NAME]);
    await createWatchRun(createScheduledLoader(bot.env(), { logger: bot.logger }), bot.env())();
    bot.sim.newExhibitorAppears();
    await bot.store.watchLists.setStatus(BIG.teamId, SECOND.channel, 'on');
    await watchNames(bot, BIG.teamId, BIG.channel, unknownNames(20, 900));
  });
  afterAll(() => bot.close());

  it('checks the small channel after one slice of the big one, each next slice sent to the back of its lane', async () => {
    // Prepare: the hourly run sends each channel's first slice
    const queue = fifoQueue();
    const loader = createScheduledLoader(env(), { logger: bot.logger });
    expect(await createWatchRun(loader, env(), { sqs: queue.sqs })()).toMatchObject({ due: 2, sent: 2 });
    const consume = createWatchConsumer(loader, env(), { sqs: queue.sqs });
    const ran: string[] = [];

    // Act: one message per invocation, in the order the queue holds them, until none is left
    for (let next = 0; next < queue.messages.length; next++) {
      const message = queue.messages[next];
      const request = JSON.parse(message?.body ?? '{}') as { channelId: string; slice?: number };
      const answer = await consume(
        { Records: [{ messageId: `m${next}`, body: message?.body ?? '' }] },
        LAMBDA,
      );
      expect(answer.batchItemFailures).toEqual([]);
      ran.push(`${request.channelId === BIG.channel ? 'big' : 'small'}${request.slice ?? 0}`);
    }

    // Assess
    expect(ran.indexOf('small0')).toBeLessThan(ran.indexOf('big1'));
    const big = ran.filter((slice) => slice.startsWith('big'));
    expect(big).toEqual(big.map((_, n) => `big${n}`));
    expect(big.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(alertsIn(bot, SECOND.channel))).toContain(KNOWN_COMPANY_NAME);
    const lanes = new Map<string, Set<string>>();
    for (const { body, group } of queue.messages) {
      const { channelId } = JSON.parse(body) as { channelId: string };
      lanes.set(channelId, (lanes.get(channelId) ?? new Set()).add(group));
    }
    expect([...lanes.values()].map((groups) => groups.size)).toEqual([1, 1]);
    expect(
      [...lanes.values()].flatMap((groups) => [...groups]).every((g) => g.startsWith(`${BIG.teamId}#`)),
    ).toBe(true);
    const stored = await bot.store.watchLists.allAccounts(BIG.teamId, BIG.channel);
    expect(stored.every((account) => account.resolution === 'not-found')).toBe(true);
  });

  it('does nothing, without error, when its consumer is invoked by a schedule', async () => {
    const consume = createWatchConsumer(createScheduledLoader(env(), { logger: bot.logger }), env(), {
      sqs: fifoQueue().sqs,
    });

    const answer = await consume({ source: 'aws.events', 'detail-type': 'Scheduled Event' }, LAMBDA);

    expect(answer).toEqual({ batchItemFailures: [] });
  });
});
