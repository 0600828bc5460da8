import type { FinishedUnlockTask, FollowUp, Json, SkippedPerson, UnlockKind, UnlockTask } from './records.ts';

export interface NewUnlockTask {
  taskId: string;
  kind: UnlockKind;
  teamId: string;
  channelId: string;
  threadTs: string;
  requestedBy: string;
  personnelIds: string[];
  names?: Record<string, string>;
  skipped: SkippedPerson[];
  confirmationId?: string;
  /** A follow-up (outreach drafts, LinkedIn activity) rather than a contact unlock. */
  followUp?: FollowUp;
  /** The service account whose key submitted it. */
  serviceAccount?: string;
}

export interface RescheduleInput {
  owner: string;
  nextPollAt: Date;
  attempts: number;
  /** What the card's waiting line now says (`waitingShownKey`); unchanged when absent. */
  waitingShown?: string;
  /** A follow-up's people now known to be over (`FollowUpProgress.settled`); unchanged when absent. */
  followUpSettled?: string[];
}

/** The contact-unlock tasks, as the poller works through them and the digest reports them. */
export interface UnlockTaskRepository {
  /** Tasks due at `now`, earliest first (eventually consistent: `lease` one before acting on it). */
  due: (query: { now: Date; limit: number }) => Promise<UnlockTask[]>;
  /** When the first task (of any workspace) falls due after `after` and no later than `before`. */
  nextDue: (window: { after: Date; before: Date }) => Promise<Date | undefined>;
  /** Takes the task for `leaseMs` if it is due and nobody else holds it; null when someone else has it. */
  lease: (taskId: string, lease: { owner: string; leaseMs: number }) => Promise<UnlockTask | null>;
  /** Releases the owner's lease and sets the next poll; false when the owner no longer holds it. */
  reschedule: (taskId: string, next: RescheduleInput) => Promise<boolean>;
  /** Marks the result as posted, once: true for exactly one caller. */
  markResultPosted: (taskId: string, result: { owner: string; outcome: Json }) => Promise<boolean>;
  /** Notes that posting to Slack failed; the task stays as it is. */
  recordSlackFailure: (taskId: string, reason: string) => Promise<void>;
  /** Ends a task without a result, for good (out of the due index): true for the one caller that did. */
  stop: (taskId: string, reason: string) => Promise<boolean>;
  /** Tasks of a team whose result was posted at or after `since`, oldest first. */
  listFinishedSince: (teamId: string, since: Date) => Promise<FinishedUnlockTask[]>;
}
