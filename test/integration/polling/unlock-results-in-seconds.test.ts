import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_SIZING } from '../../../infra/config.ts';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { EARLY_POLLS, RUN_EVERY_MS } from '../../../src/domain/poll-cadence.ts';
import { createScheduledLoader } from '../../../src/roots/runtime.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, type Bot, startBot, visibleText } from '../../support/bot.ts';
import { type VirtualClock, virtualClock } from '../../../local/virtual-clock.ts';

/*
 * Issue 35, item 1, as it is checked: email unlocks the service finishes 20, 45 and 100 s after they
 * start reach their threads within 15 s each, once, with no further charge. Everything runs through
 * the real handlers (the Slack function and its inline worker with the project's early polls) and the
 * scheduled run as poll-tasks runs it, started every 60 s as EventBridge would, each given the
 * Lambda's timeout; all on one virtual clock, so the test takes seconds.
 */

const SECOND = 1_000;
const DURATIONS = [20 * SECOND, 45 * SECOND, 100 * SECOND];
/** EventBridge's first run after the confirmations: the worker's polls must carry the tasks to it. */
const FIRST_RUN_AFTER = 33 * SECOND;
const POLL_TIMEOUT_MS = FUNCTION_SIZING.pollTasks.timeout.toMilliseconds();

describe('unlock results in the thread within seconds of the service finishing them', () => {
  let bot: Bot;
  let clock: VirtualClock;
  const cards: SlackMessage[] = [];
  /** When (on the clock) each card's thread first had a reply. */
  const repliedAt = new Map<string, number>();
  let submittedAt = 0;
  let balanceAfterCharges = 0;
  let chargesAfterConfirm = 0;
  let waitingCard = '';

  const repliesIn = (threadTs: string) => bot.messages().filter((m) => m.threadTs === threadTs);
  const noteReplies = () => {
    for (const card of cards)
      if (!repliedAt.has(card.ts) && repliesIn(card.ts).length > 0) repliedAt.set(card.ts, clock.now());
  };

  beforeAll(async () => {
    clock = virtualClock(Date.now());
    bot = await startBot({ clock, earlyPolls: EARLY_POLLS });
    const people = bot.sim.seed.personnel.filter((p) => p.linked && p.emailFindable).slice(0, 3);
    for (const person of people) {
      await bot.command(`emails ${person.id}`);
      await bot.idle();
      cards.push(bot.last());
    }
    // Confirmed one after another, at one moment of the clock: each task takes its own time.
    submittedAt = clock.now();
    for (const [i, card] of cards.entries()) {
      bot.sim.setTaskDuration(DURATIONS[i] ?? 0);
      await bot.click(card, ACTION_IDS.confirmYes, ALICE);
      await clock.settle();
    }
    balanceAfterCharges = bot.sim.balance(bot.apiKey);
    chargesAfterConfirm = bot.sim.ledger(bot.apiKey).length;

    // The scheduled run, as handlers/poll-tasks.ts runs it, every minute from 33 s after the submission.
    const load = createScheduledLoader(bot.scheduledEnv(), {
      logger: bot.logger,
      now: clock.date,
      sleep: clock.sleep,
      nap: clock.sleep,
    });
    const runs: Promise<unknown>[] = [];
    for (let minute = 0; minute < 3; minute++) {
      const startsAt = submittedAt + FIRST_RUN_AFTER + minute * RUN_EVERY_MS;
      await clock.advanceTo(startsAt, noteReplies);
      if (minute === 1) waitingCard = visibleText(bot.find((m) => m.ts === cards[2]?.ts));
      runs.push(
        (async () => {
          const jobs = await load();
          await jobs.reconcileConfirmations();
          return load.pollRun({ remainingMs: () => POLL_TIMEOUT_MS - (clock.now() - startsAt) });
        })(),
      );
    }
    await clock.advanceTo(submittedAt + FIRST_RUN_AFTER + 3 * RUN_EVERY_MS, noteReplies);
    await Promise.all(runs);
    await bot.idle();
  }, 120_000);
  afterAll(async () => {
    await bot.close();
    await clock.close();
  });

  it('posts each result within 15 s of the service finishing it', () => {
    const lags = cards.map(
      (card, i) => (repliedAt.get(card.ts) ?? Infinity) - (submittedAt + (DURATIONS[i] ?? 0)),
    );

    for (const lag of lags) {
      expect(lag).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThanOrEqual(15 * SECOND);
    }
  });

  it('posts one reply per thread and turns each card to Done', () => {
    for (const card of cards) {
      expect(repliesIn(card.ts)).toHaveLength(1);
      expect(visibleText(bot.find((m) => m.ts === card.ts))).toMatch(/Done/);
    }
  });

  it('charges nothing more while it waits and replies', () => {
    expect(bot.sim.balance(bot.apiKey)).toBe(balanceAfterCharges);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(chargesAfterConfirm);
    expect(chargesAfterConfirm).toBe(3);
  });

  it('says on the card what the service is doing while it waits, never a stale “Charging…”', () => {
    expect(waitingCard).toContain(
      'Waiting for the service: 1 contact, started 1 min ago; this one is taking longer than most',
    );
    expect(waitingCard).not.toContain('Charging');
  });

  it('polls the tasks at most once a step on average, worker and runs together', () => {
    const polls = bot.sim.requests().filter((r) => r.path.includes('/unlock-tasks/')).length;

    // Each task's time at a poll each step, a first poll each, and one doubled each where a run took over.
    const waited = DURATIONS.reduce((sum, duration) => sum + duration, 0);
    expect(polls).toBeLessThanOrEqual(waited / EARLY_POLLS.everyMs + 2 * DURATIONS.length);
  });
});
