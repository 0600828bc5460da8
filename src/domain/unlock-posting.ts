import type { Logger } from '../platform/log.ts';
import type { Metrics, UnlockTask, UnlockTaskRepository } from './ports/index.ts';
import { nextPollAt } from './poll-cadence.ts';
import { isChannelGone, SlackDeliveryError } from './slack-delivery.ts';
import type { UnlockOutcome } from './unlock-result.ts';

/** What posting a reply needs of the poll run (unlock-polling.ts's `RunState` is one). */
export interface PostingRun {
  owner: string;
  deps: {
    tasks: Pick<UnlockTaskRepository, 'reschedule' | 'markResultPosted' | 'recordSlackFailure'>;
    thread: { updateCard(task: UnlockTask, outcome: UnlockOutcome): Promise<void> };
    now: () => Date;
    runStartedAt?: Date;
    metrics?: Metrics;
  };
  summary: { skipped: number; slackFailures: number };
  log: Logger;
  /** Sends to the task's channel, paced and retried. */
  post: (task: UnlockTask, send: () => Promise<void>) => Promise<void>;
}

/**
 * A reply Slack rate-limited past the pacer's tries is tried again at later polls, this many times in
 * all; then the task ends with the failure recorded. A failure after which the reply may have arrived
 * (a timeout, a Slack-side error) or never will (the channel is gone) ends it at once: posting again
 * could post it twice.
 */
export const MAX_REPLY_TRIES = 3;

/** Slack's code when the run had no time left to wait for the channel's turn: nothing was sent. */
const NOT_SENT = 'no_time_left';

/**
 * Posts a finished task's reply, then marks it posted: a leased step. The poll's lease on the task
 * (`LEASE_MS`, longer than a post with its retries) is held throughout, so no other run acts on the
 * task meanwhile; a run that dies before the mark leaves the task leased, and once its lease runs out
 * a later run takes it, reads the service again and posts the reply. True when the reply was posted.
 */
export async function finish(
  task: UnlockTask,
  outcome: UnlockOutcome,
  send: () => Promise<void>,
  run: PostingRun,
): Promise<boolean> {
  const { owner, deps, summary, log } = run;
  try {
    await run.post(task, send);
  } catch (error) {
    await notPosted(task, outcome, error, run);
    return false;
  }
  if (!(await deps.tasks.markResultPosted(task.taskId, { owner, outcome }))) {
    // Only a run whose lease ran out while it posted gets here: the reply was already marked.
    log.warn('an unlock reply was marked posted by another run');
    summary.skipped += 1;
    return false;
  }
  // How long the finished task waited, from when its poll was due to its reply: the schedule's lag.
  deps.metrics?.add('PollLag', Math.max(0, deps.now().getTime() - Date.parse(task.nextPollAt)));
  // A follow-up has no card of its own to update: the unlock's card stays as it is.
  if (!task.followUp) await updateCard(task, outcome, run);
  return true;
}

/**
 * Slack did not take the reply. The task stays due, unmarked, for the next poll to try again when
 * nothing was sent or Slack asked us to wait (`MAX_REPLY_TRIES`); else it ends, the failure recorded.
 */
async function notPosted(task: UnlockTask, outcome: UnlockOutcome, error: unknown, run: PostingRun) {
  const { owner, deps, summary, log } = run;
  const reason = error instanceof SlackDeliveryError ? error.slackError : 'unexpected_error';
  const again = { owner, nextPollAt: deps.now(), attempts: task.attempts };
  if (reason === NOT_SENT) {
    log.warn('result not posted yet, left for the next run', { error });
    await deps.tasks.reschedule(task.taskId, again);
    return;
  }
  summary.slackFailures += 1;
  await deps.tasks.recordSlackFailure(task.taskId, reason);
  const retryable = error instanceof SlackDeliveryError && error.retryable;
  if (retryable && task.slackFailures + 1 < MAX_REPLY_TRIES) {
    log.warn('Slack did not take an unlock reply; the next poll tries again', { slackError: reason });
    const age = deps.now().getTime() - Date.parse(task.createdAt);
    await deps.tasks.reschedule(task.taskId, {
      ...again,
      nextPollAt: nextPollAt(age, deps.now(), deps.runStartedAt),
    });
    return;
  }
  if (isChannelGone(error)) log.warn('the thread cannot be posted to any more', { slackError: reason });
  else log.error('posting an unlock result failed', { error, slackError: reason });
  await deps.tasks.markResultPosted(task.taskId, { owner, outcome });
}

/**
 * Not paced: Slack's one-message-a-second per channel is for posts, and an edit in the channel's slot
 * held a poll lane through the gap after the reply (4 results a second instead of 19 in the bench).
 */
async function updateCard(task: UnlockTask, outcome: UnlockOutcome, run: PostingRun) {
  try {
    await run.deps.thread.updateCard(task, outcome);
  } catch (error) {
    run.log.warn('could not update the unlock card', { error });
  }
}
