/*
 * How often an unlock task (and a follow-up in its thread) is polled, and when waiting stops: the poll
 * cadence, here and nowhere else. A scheduled run starts each minute (POLL_TASKS_SCHEDULE in
 * infra/constructs/schedules.ts) and keeps polling for about that minute while a young task is due
 * (`pollTasksForAMinute`, poll-run.ts); replies that name the deadline read it here.
 */

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * A young task's polls, by age: most finish within minutes, and a result waits at most one step for
 * its reply (p50 ≈ half a step). Steps of 5 s, then 10 s, keep the reply within 15 s for a task of up
 * to 10 minutes, at about 72 polls for one that takes the whole 10 minutes.
 */
export const YOUNG_STEPS = [
  { untilAgeMs: 2 * MINUTE_MS, everyMs: 5 * SECOND_MS },
  { untilAgeMs: 10 * MINUTE_MS, everyMs: 10 * SECOND_MS },
] as const;
/** How often the scheduled run starts; an older task is polled when one starts. */
export const RUN_EVERY_MS = MINUTE_MS;
/** Until this age, an older task is polled at every scheduled run (each minute), as before. */
export const EVERY_RUN_FOR_MS = 30 * MINUTE_MS;
/** The first delay once a task is no longer polled at every run; it grows with the task's age. */
const FIRST_BACKOFF_MS = MINUTE_MS;
export const MAX_BACKOFF_MS = 10 * MINUTE_MS;
/** An unlock with no result after this long is given up on, and its thread told. */
export const GIVE_UP_AFTER_MS = 24 * HOUR_MS;
/** The deadline in whole hours, as the replies that name it say it. */
export const GIVE_UP_AFTER_HOURS = GIVE_UP_AFTER_MS / HOUR_MS;
/** Drafts and LinkedIn analyses take minutes: after two hours without them, the thread is told. */
export const FOLLOW_UP_GIVE_UP_AFTER_MS = 2 * HOUR_MS;

/**
 * A task's first polls, by the worker that submitted it, at the young cadence: until a scheduled run
 * has taken the task over (it polled it too), or for a run's minute and a step more, by when a run
 * that started after the submission has seen it. Without them a task submitted while no run is going
 * would wait for the next.
 */
export const EARLY_POLLS = {
  count: Math.ceil(RUN_EVERY_MS / YOUNG_STEPS[0].everyMs) + 1,
  everyMs: YOUNG_STEPS[0].everyMs,
};

/**
 * How long after this poll the next one is due: the young steps, then none (the next scheduled run
 * polls it), then a minute plus half the time past 30 minutes, up to 10 minutes.
 */
export function pollDelayMs(ageMs: number): number {
  const step = youngStepMs(ageMs);
  if (step !== undefined) return step;
  if (ageMs < EVERY_RUN_FOR_MS) return 0;
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS + (ageMs - EVERY_RUN_FOR_MS) / 2);
}

/**
 * When a task polled `now` at `ageMs` is next due. A young task's step counts from now. An older one
 * is due when a scheduled run starts: the first start (counted from `runStartedAt`, the run polling it)
 * at least its delay away, so no run stays up waiting for it. Without a run (the worker's early polls)
 * the delay counts from now.
 */
export function nextPollAt(ageMs: number, now: Date, runStartedAt?: Date): Date {
  const delay = pollDelayMs(ageMs);
  if (youngStepMs(ageMs) !== undefined || !runStartedAt) return new Date(now.getTime() + delay);
  const since = now.getTime() + delay - runStartedAt.getTime();
  const runs = Math.max(1, Math.ceil(since / RUN_EVERY_MS));
  return new Date(runStartedAt.getTime() + runs * RUN_EVERY_MS);
}

/** A young task's step, or none once it is 10 minutes old. */
function youngStepMs(ageMs: number): number | undefined {
  return YOUNG_STEPS.find((young) => ageMs < young.untilAgeMs)?.everyMs;
}
