import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILE_AFTER_SECONDS } from '../../../src/domain/ports/index.ts';
import { quarterOfShow } from '../../../src/domain/plan/rules.ts';
import { PRICES } from '../../../src/domain/prices.ts';
import { confirmationIdOf } from '../../support/bot.ts';
import { type DistributedBot, startDistributedBot, testWorkspace } from '../../support/distributed-bot.ts';

/*
 * The plan's 80% warning follows every booked charge, not only one a worker settled after a click:
 * here the worker dies after the service charged, and the scheduled reconciler books the charge.
 */

const PLANNER = testWorkspace('T0PLANNER');
const BIG_EVENT = '26855';
const WARNING = ':warning: This channel has spent';

/** Past every charge's deadline: what a scheduled reconcile run sees a few minutes later. */
const afterTheDeadline = () => new Date(Date.now() + (RECONCILE_AFTER_SECONDS.charging + 5) * 1000);

describe('the plan’s budget warning, for a charge the reconciler books', () => {
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [PLANNER], dynamoFaults: true });
    expect(await bot.install(PLANNER.teamId)).toBe(200);
    await bot.connectKey(PLANNER.teamId, bot.newKey(20_000));
  });
  afterAll(() => bot.close());

  it('warns the channel once the reconciler books the unlock of a plan’s show past 80% of its quarter’s budget', async () => {
    // Prepare: the show on the channel's plan, its quarter's budget the unlock's price.
    const show = bot.sim.events.find((event) => event.eventId === BIG_EVENT);
    const quarter = show && quarterOfShow(show);
    if (!show || !quarter) throw new Error(`the simulator has no dated show ${BIG_EVENT}`);
    const at = new Date().toISOString();
    const budget = PRICES['event-unlock'].credits;
    await bot.store.plans.update(PLANNER.teamId, PLANNER.channel, (current) => ({
      next: {
        ...current,
        shows: [
          {
            eventId: show.eventId,
            name: show.name,
            dateStart: show.dateStart,
            dateEnd: show.dateEnd,
            city: null,
            addedBy: PLANNER.member.userId,
            addedAt: at,
          },
        ],
        budgets: { [quarter.key]: { credits: budget, setBy: PLANNER.member.userId, setAt: at } },
      },
      result: null,
    }));
    // The member confirms the unlock; the service charges it, then the worker can store nothing more.
    await bot.command(`unlock ${BIG_EVENT}`, PLANNER.member);
    await bot.idle();
    const card = bot.slack.messages(PLANNER.channel).at(-1);
    if (!card) throw new Error('no confirmation card');
    const id = confirmationIdOf(card);
    bot.proxy?.setRule((request) =>
      request.operation === 'TransactWriteItems' &&
      JSON.stringify(request.body).includes('outcome = :outcome')
        ? { kind: 'fail' }
        : undefined,
    );
    await bot.click(card, 'confirm.yes', PLANNER.member);
    await bot.idle();
    bot.proxy?.clearRule();
    expect((await bot.store.confirmations.get(id))?.status).toBe('running');
    const warnings = () =>
      bot.slack.messages(PLANNER.channel).filter((message) => message.text.includes(WARNING));
    expect(warnings()).toEqual([]);

    // Act
    const report = await (await bot.scheduled(afterTheDeadline)()).reconcileConfirmations();

    // Assess
    expect(report).toMatchObject({ settled: 1 });
    expect(await bot.store.confirmations.get(id)).toMatchObject({ status: 'succeeded' });
    expect(warnings().map((message) => message.text)).toEqual([
      expect.stringContaining(`on its plan’s ${quarter.label} shows: 100% of the budget`),
    ]);
  });
});
