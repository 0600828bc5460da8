import type { UnlockTask } from './ports/index.ts';

/*
 * What an unlock's card says while the service works on it, as facts the card's view words. The card
 * is rewritten only when these change, and they change at most every 15 s: the age in 15-s steps under
 * a minute, whole minutes under an hour, then whole hours.
 */

/** The finest step of the age the card shows, and so the most often it is rewritten. */
export const WAITING_STEP_MS = 15_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Until this age the card says results usually arrive within a minute; after it, that this one is slow. */
export const USUALLY_WITHIN_MS = MINUTE_MS;

export interface UnlockWaiting {
  /** The contacts the service is unlocking (those skipped before it started are not counted). */
  contacts: number;
  /** How long ago the task started, rounded down to what the card shows. */
  startedAgo: { unit: 'seconds' | 'minutes' | 'hours'; count: number };
  /** Still within the time most results take, or longer than that. */
  expected: 'within-a-minute' | 'longer';
}

/** The waiting facts of a task `ageMs` old. */
export function unlockWaitingOf(
  task: Pick<UnlockTask, 'personnelIds' | 'skipped'>,
  ageMs: number,
): UnlockWaiting {
  const age = Math.max(0, ageMs);
  const startedAgo: UnlockWaiting['startedAgo'] =
    age < MINUTE_MS
      ? { unit: 'seconds', count: Math.floor(age / WAITING_STEP_MS) * (WAITING_STEP_MS / 1_000) }
      : age < HOUR_MS
        ? { unit: 'minutes', count: Math.floor(age / MINUTE_MS) }
        : { unit: 'hours', count: Math.floor(age / HOUR_MS) };
  return {
    contacts: Math.max(0, task.personnelIds.length - task.skipped.length),
    startedAgo,
    expected: age < USUALLY_WITHIN_MS ? 'within-a-minute' : 'longer',
  };
}

/** What the card last showed, kept on the task: the card is rewritten only when this changes. */
export function waitingShownKey(waiting: UnlockWaiting): string {
  return `${waiting.contacts}:${waiting.startedAgo.count}${waiting.startedAgo.unit[0] ?? ''}`;
}
