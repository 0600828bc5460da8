import { randomUUID } from 'node:crypto';
import { FUNCTION_SIZING } from '../../../infra/config.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILE_AFTER_SECONDS } from '../../../src/domain/ports/index.ts';
import { serviceAccountId } from '../../../src/platform/config/secrets.ts';
import { createStore } from '../../../src/store/index.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, askFor, type Bot, confirmationIdOf, startBot, visibleText } from '../../support/bot.ts';

/*
 * Issue 41, item 5: the minute's run reconciles within its own share, so polling always runs. Five
 * charges were left running by workers that died, and the service never answers the precheck the
 * reconciler asks about them (each ask takes the client's timeouts and retries). The run is
 * handlers/poll-tasks.ts itself, given the Lambda's timeout; a finished unlock waits for its reply.
 */

/** Enough that asking about each in turn (the client's 10-s timeout, twice retried) outlasts a minute. */
const STUCK_CHARGES = 5;
const LAMBDA_TIMEOUT_MS = FUNCTION_SIZING.pollTasks.timeout.toMilliseconds();
const EVENT = '26855';

describe('a poll-tasks run while the service hangs on the reconciler’s questions', () => {
  let bot: Bot;
  let cardTs = '';
  let result: { reconciled: unknown; polled: { posted: number } };
  const stuck: string[] = [];

  beforeAll(async () => {
    bot = await startBot();
    // A finished email unlock, waiting for the run to post it.
    const person = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    if (!person) throw new Error('the seed has no person with a findable email');
    await bot.command(`emails ${person.id}`);
    await bot.idle();
    const card = bot.last();
    cardTs = card.ts;
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    bot.sim.completeTasks();

    // Charges whose workers died after the write-ahead, longer ago than a worker can run.
    const past = new Date(Date.now() - (RECONCILE_AFTER_SECONDS.charging + 60) * 1000);
    const then = createStore({ ...bot.table, now: () => past });
    for (let i = 0; i < STUCK_CHARGES; i++) {
      const id = confirmationIdOf(await askFor(bot, `unlock ${EVENT}`));
      const claimed = await then.confirmations.claim(id, { by: ALICE.userId });
      if (claimed.kind !== 'claimed') throw new Error('the charge could not be claimed');
      await then.charges.begin(claimed.confirmation, {
        attemptId: randomUUID(),
        accountId: serviceAccountId(bot.apiKey),
        day: past.toISOString().slice(0, 10),
        requestedBy: ALICE.userId,
        confirmedBy: ALICE.userId,
        ledger: { action: 'event-unlock', eventId: EVENT },
      });
      stuck.push(id);
    }
    bot.sim.injectFault({ kind: 'hang', route: 'POST /external/actions/precheck', times: 100 });

    // Act: the scheduled function, as EventBridge starts it.
    Object.assign(process.env, bot.scheduledEnv());
    const { handler } = await import('../../../handlers/poll-tasks.ts');
    const started = Date.now();
    result = await handler(
      {},
      { getRemainingTimeInMillis: () => LAMBDA_TIMEOUT_MS - (Date.now() - started) },
    );
  }, 90_000);
  afterAll(() => bot.close());

  it('polls and posts the finished unlock’s reply once the reconciler’s share is used', () => {
    const replies = bot.messages().filter((m) => m.threadTs === cardTs);

    expect(result.polled.posted).toBe(1);
    expect(replies).toHaveLength(1);
    expect(visibleText(bot.find((m) => m.ts === cardTs))).toMatch(/Done/);
  });

  it('leaves the charges it had no time for to the next run, still running', async () => {
    const statuses = await Promise.all(
      stuck.map(async (id) => (await bot.store.confirmations.get(id))?.status),
    );

    expect(result.reconciled).toBe('share-used');
    expect(statuses.filter((status) => status === 'running').length).toBeGreaterThanOrEqual(
      STUCK_CHARGES - 1,
    );
  });
});
