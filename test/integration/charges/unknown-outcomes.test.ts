import { afterEach, describe, expect, it } from 'vitest';
import { serviceAccountId } from '../../../src/platform/config/secrets.ts';
import { RECONCILE_AFTER_SECONDS } from '../../../src/domain/ports/index.ts';
import { UNKNOWN_OUTCOME } from '../../../src/domain/unknown-outcomes.ts';
import { ALICE, askFor, type Bot, confirmationIdOf, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * A charge whose outcome is unknown (the service's answer to the charging call was lost) is asked
 * about again by the scheduled reconciler, through the real handlers: booked as charged or not once the
 * service shows which, on the card and in the ledger; listed for the admins on Home when still unknown
 * after a day.
 */

const BIG_EVENT = '26855';
const UNLOCK_ROUTE = 'POST /external/events/{id}/unlock';
const PRECHECK_ROUTE = 'POST /external/actions/precheck';
const ADMIN = 'U0ADMIN';
const SECOND = 1000;

describe('a charge whose outcome is unknown', () => {
  let bot: Bot;
  /** How far the worker's and the simulator's clock is ahead of the wall clock. */
  let shift = 0;
  afterEach(() => bot?.close());

  async function start() {
    shift = 0;
    bot = await startBot({
      users: { [ADMIN]: { name: 'admin', tz: 'UTC', teamId: TEAM, isAdmin: true } },
      clock: { now: () => Date.now() + shift, sleep: (ms) => new Promise((wake) => setTimeout(wake, ms)) },
    });
  }

  /** Alice confirms the 2,000-credit unlock; the service answers 502 (having charged, with `charged`). */
  async function chargeWithLostAnswer({ charged }: { charged: boolean }) {
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);
    bot.sim.injectFault({ kind: 'status', status: 502, route: UNLOCK_ROUTE, afterExecute: charged });
    await bot.click(card, 'confirm.yes');
    await bot.idle();
    const id = confirmationIdOf(card);
    const confirmation = await bot.store.confirmations.get(id);
    expect(confirmation?.status).toBe('failed');
    expect(cardText(card.ts)).toMatch(/outcome is unknown/);
    return { id, ts: card.ts, day: confirmation?.chargeDay ?? '' };
  }

  const cardText = (ts: string) => visibleText(bot.find((message) => message.ts === ts));
  const ledger = () => bot.store.ledger.listSince(TEAM, new Date(Date.now() - 3_600_000));
  /** One scheduled reconcile run, `seconds` after now on the worker's clock. */
  const reconcileAfter = (seconds: number) => bot.reconcile(shift + seconds * SECOND);

  async function homeOf(userId: string) {
    await bot.slack.openHome(userId);
    await bot.idle();
    return JSON.stringify(bot.slack.home(userId)?.view ?? null);
  }

  it('is booked as charged once the service shows the unlock, on the card and in the ledger', async () => {
    // Prepare
    await start();
    const charge = await chargeWithLostAnswer({ charged: true });
    expect(cardText(charge.ts)).toContain(
      `asks the service every ${UNKNOWN_OUTCOME.askEverySeconds / 60} minutes`,
    );

    // Act
    const report = await reconcileAfter(RECONCILE_AFTER_SECONDS.decided + 5);

    // Assess
    expect(report).toMatchObject({ resolved: 1, failures: 0 });
    expect(await bot.store.confirmations.get(charge.id)).toMatchObject({ status: 'succeeded' });
    const text = cardText(charge.ts);
    expect(text).toContain('The service shows this went through');
    expect(text).not.toMatch(/outcome is unknown/);
    const entries = await ledger();
    expect(entries).toMatchObject([{ confirmationId: charge.id, status: 'charged', credits: 2000 }]);
    expect(entries[0]?.outcomeUnknown).toBeUndefined();
    expect(entries[0]?.outcomeConfirmedAt).toBeDefined();
    expect(await bot.store.charges.spent(serviceAccountId(bot.apiKey), charge.day)).toBe(2000);
    // Decided: out of the reconciler's index, and nothing for the admins to check.
    expect(await bot.store.confirmations.dueForTeam(TEAM)).toEqual([]);
    expect(await homeOf(ADMIN)).not.toContain('Needs attention');
  });

  it('is booked as not charged when the service shows the full price still due, and the cap gets it back', async () => {
    // Prepare
    await start();
    const charge = await chargeWithLostAnswer({ charged: false });
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);

    // Act
    const report = await reconcileAfter(RECONCILE_AFTER_SECONDS.decided + 5);

    // Assess
    expect(report).toMatchObject({ resolved: 1 });
    const text = cardText(charge.ts);
    expect(text).toContain('The service shows no charge for this');
    expect(text).toContain('Nothing was charged');
    expect(await ledger()).toMatchObject([{ confirmationId: charge.id, status: 'refused', credits: 0 }]);
    expect(await bot.store.charges.spent(serviceAccountId(bot.apiKey), charge.day)).toBe(0);
  });

  it('is asked about again while the service cannot say, then listed for the admins on Home after a day', async () => {
    // Prepare: the service charged, but its precheck answers nothing readable for now.
    await start();
    const charge = await chargeWithLostAnswer({ charged: true });
    bot.sim.injectFault({ kind: 'malformed-json', route: PRECHECK_ROUTE, times: 1_000 });
    const prechecks = () => bot.sim.requests().filter((request) => request.path.endsWith('/precheck')).length;
    const before = prechecks();

    // Act: a run soon after, one within the same interval, one an interval later.
    await reconcileAfter(RECONCILE_AFTER_SECONDS.decided + 5);
    await reconcileAfter(RECONCILE_AFTER_SECONDS.decided + 10);
    await reconcileAfter(RECONCILE_AFTER_SECONDS.decided + UNKNOWN_OUTCOME.askEverySeconds + 10);
    const asked = prechecks() - before;
    const homeWhileAsking = await homeOf(ADMIN);

    // Assess: asked once per interval, still unknown, not yet for the admins (the card says it is asked about).
    expect(asked).toBe(2);
    expect(await ledger()).toMatchObject([{ status: 'unknown', credits: 2000 }]);
    expect(homeWhileAsking).not.toContain('Needs attention');

    // Act: a day later, the service still cannot say.
    shift = (UNKNOWN_OUTCOME.askForSeconds + 60) * SECOND;
    await reconcileAfter(0);
    const admin = await homeOf(ADMIN);
    const member = await homeOf(ALICE.userId);

    // Assess
    const hours = `${UNKNOWN_OUTCOME.askForSeconds / 3600} hours`;
    expect(cardText(charge.ts)).toContain(`Still unknown after ${hours} of asking the service`);
    expect(await bot.store.confirmations.dueForTeam(TEAM)).toEqual([]);
    expect(admin).toContain('Needs attention');
    expect(admin).toContain('up to *2,000 credits* may have been spent');
    expect(admin).toContain(`still unknown after ${hours}`);
    expect(member).not.toContain('Needs attention');
  });
});
