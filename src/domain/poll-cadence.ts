/*
 * How often an unlock task (and a follow-up in its thread) is polled, and when waiting stops: the poll
 * cadence, here and nowhere else. The scheduled run that takes due tasks comes each minute
 * (POLL_TASKS_SCHEDULE in infra/constructs/schedules.ts); replies that name the deadline read it here.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Most tasks finish within minutes: a young task is polled at every scheduled run (each minute). */
export const EVERY_RUN_FOR_MS = 30 * MINUTE_MS;
/** The first delay once a task is no longer young; it grows with the task's age from there. */
const FIRST_BACKOFF_MS = MINUTE_MS;
export const MAX_BACKOFF_MS = 10 * MINUTE_MS;
/** An unlock with no result after this long is given up on, and its thread told. */
export const GIVE_UP_AFTER_MS = 24 * HOUR_MS;
/** The deadline in whole hours, as the replies that name it say it. */
export const GIVE_UP_AFTER_HOURS = GIVE_UP_AFTER_MS / HOUR_MS;
/** Drafts and LinkedIn analyses take minutes: after two hours without them, the thread is told. */
export const FOLLOW_UP_GIVE_UP_AFTER_MS = 2 * HOUR_MS;

/** A task's first polls, by the worker that submitted it: most tasks finish within seconds. */
export const EARLY_POLLS = { count: 4, everyMs: 5_000 };

/**
 * How long after this poll the next one is due: none while the task is young (the next scheduled run
 * polls it), then a minute plus half the time past 30 minutes, up to 10 minutes.
 */
export function pollDelayMs(ageMs: number): number {
  if (ageMs < EVERY_RUN_FOR_MS) return 0;
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS + (ageMs - EVERY_RUN_FOR_MS) / 2);
}
