import * as z from 'zod';
import type { UnlockKind, UnlockTask } from './ports/index.ts';

/*
 * What a finished unlock task says: the service's progress read per person asked for, and the counts
 * kept on the task (and shown on its card and in the digest) once its result is posted.
 */

/** What the service says about a contact unlock task (the email and phone shapes, made one). */
export interface UnlockTaskProgress {
  taskStatus: 'pending' | 'processing' | 'completed' | 'failed';
  items: { personnelId: string; status: string; value: string | null; errorCode?: string }[];
}

/** One person in a finished unlock: the email or phone, or why there is none. */
export interface UnlockedPerson {
  personnelId: string;
  value: string | null;
  /** Why nothing was unlocked, in the user's words; absent when `value` is set. */
  problem?: string;
}

/** A finished task as the thread reply shows it. */
export interface UnlockResult {
  kind: UnlockKind;
  status: 'completed' | 'failed';
  people: UnlockedPerson[];
  skipped: UnlockTask['skipped'];
}

/**
 * What is kept on the task once its result is posted: counts only. The contacts themselves stay in the
 * service (unlocked for the account), not in our table.
 */
export const UnlockOutcomeSchema = z.object({
  status: z.enum(['completed', 'failed', 'timed-out']),
  unlocked: z.number().int().nonnegative(),
  notUnlocked: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});
export type UnlockOutcome = z.infer<typeof UnlockOutcomeSchema>;

const PROBLEMS: Record<string, string> = {
  EMAIL_NOT_FOUND: 'no email address found',
  PHONE_NOT_FOUND: 'no phone number found',
  TASK_FAILED: 'the unlock failed',
};

/** The service's answer in the user's words, per person asked for. */
export function unlockResultOf(task: UnlockTask, progress: UnlockTaskProgress): UnlockResult {
  const byId = new Map(progress.items.map((item) => [item.personnelId, item]));
  const asked = task.personnelIds.filter((id) => !task.skipped.some((skip) => skip.personnelId === id));
  const ids = asked.length > 0 ? asked : progress.items.map((item) => item.personnelId);
  const people = ids.map((personnelId): UnlockedPerson => {
    const item = byId.get(personnelId);
    if (item?.status === 'unlocked' && item.value) return { personnelId, value: item.value };
    const problem = !item
      ? 'the service did not report on this person'
      : (PROBLEMS[item.errorCode ?? ''] ??
        (item.errorCode ? `not unlocked (${item.errorCode})` : 'not unlocked'));
    return { personnelId, value: null, problem };
  });
  return {
    kind: task.kind,
    status: progress.taskStatus === 'failed' ? 'failed' : 'completed',
    people,
    skipped: task.skipped,
  };
}

export function outcomeOf(result: UnlockResult): UnlockOutcome {
  const unlocked = result.people.filter((person) => person.value !== null).length;
  return {
    status: result.status,
    unlocked,
    notUnlocked: result.people.length - unlocked,
    skipped: result.skipped.length,
  };
}

/** An unlock given up on: nothing came back for the people it asked for. */
export function timedOutOutcome(task: Pick<UnlockTask, 'personnelIds' | 'skipped'>): UnlockOutcome {
  return {
    status: 'timed-out',
    unlocked: 0,
    notUnlocked: task.personnelIds.length - task.skipped.length,
    skipped: task.skipped.length,
  };
}
