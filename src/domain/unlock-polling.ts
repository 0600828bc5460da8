import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { type Logger, withCorrelationId } from '../platform/log.ts';
import { type FollowUpProgress, type FollowUpResult, followUpOutcome } from './follow-up.ts';
import type { Metrics, UnlockKind, UnlockTask, UnlockTaskRepository } from './ports/index.ts';
import {
  createChannelPacer,
  isChannelGone,
  realSleep,
  SlackDeliveryError,
  type Sleep,
} from './slack-delivery.ts';

/**
 * At most this many tasks are polled at once, leaving room under the service's 10 concurrent requests
 * for people using the bot. (Each Lambda counts its own requests; the limit is not shared across them.)
 */
export const MAX_CONCURRENT_POLLS = 5;
/** Most tasks finish within minutes: a young task is polled at every scheduled run (each minute). */
export const EVERY_RUN_FOR_MS = 30 * 60_000;
export const MAX_BACKOFF_MS = 10 * 60_000;
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Drafts and LinkedIn analyses take minutes: after two hours without them, the thread is told. */
export const FOLLOW_UP_GIVE_UP_AFTER_MS = 2 * 60 * 60_000;
/** Longer than one task's poll and post with their retries, so a live run never loses its lease. */
export const LEASE_MS = 2 * 60_000;
/** A task is started only with this much of the Lambda's time left: its poll and post must fit. */
export const TIME_RESERVE_MS = 20_000;

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

/** Where results go: the thread of the card the unlock was confirmed on. Errors are `SlackDeliveryError`s. */
export interface UnlockThread {
  postResult(task: UnlockTask, result: UnlockResult): Promise<void>;
  postTimeout(task: UnlockTask): Promise<void>;
  /** Rewrites the card's status line; a failure here is logged, the reply is what matters. */
  updateCard(task: UnlockTask, outcome: UnlockOutcome): Promise<void>;
  /** Says the task was submitted with a key no longer connected: its results are on that account. */
  postAccountChanged(task: UnlockTask): Promise<void>;
}

/**
 * Follow-up tasks (outreach drafts, LinkedIn activity) in an unlock's thread, polled with the unlock
 * tasks under the same leases and the same mark-then-post rule. Errors are `SlackDeliveryError`s.
 */
export interface FollowUpPolling {
  progress(task: UnlockTask): Promise<FollowUpProgress>;
  postResult(task: UnlockTask, result: FollowUpResult): Promise<void>;
  postTimeout(task: UnlockTask): Promise<void>;
}

export interface UnlockPollingDeps {
  tasks: Pick<
    UnlockTaskRepository,
    'due' | 'lease' | 'reschedule' | 'markResultPosted' | 'recordSlackFailure' | 'stop'
  >;
  /**
   * The service account of the key this run polls with: a task submitted by another account's key is
   * stopped, never polled (another key would read another account's tasks, or none).
   */
  accountId?: string;
  /** The service's progress of a task (email or phone). */
  progress(kind: UnlockKind, taskId: string): Promise<UnlockTaskProgress>;
  thread: UnlockThread;
  /** Without it, follow-up tasks are left due (backed off) for a run that has it. */
  followUps?: FollowUpPolling;
  logger: Logger;
  now: () => Date;
  /** The Lambda's remaining time; unlimited when absent. */
  remainingMs?: () => number;
  /** Identifies this run's leases. */
  owner?: string;
  concurrency?: number;
  batchSize?: number;
  /** For tests: how the run waits between Slack retries. */
  sleep?: Sleep;
  metrics?: Metrics;
}

export interface PollSummary {
  polled: number;
  posted: number;
  timedOut: number;
  rescheduled: number;
  slackFailures: number;
  /** Tasks another run held, or that were no longer due. */
  skipped: number;
  /** Tasks of a key no longer connected, stopped unpolled. */
  stopped: number;
  /** The run stopped because the Lambda's time was running out. */
  outOfTime: boolean;
}

/**
 * How long after this poll the next one is due: none while the task is young (the next scheduled run
 * polls it), then a minute plus half the time past 30 minutes, up to 10 minutes.
 */
export function pollDelayMs(ageMs: number): number {
  if (ageMs < EVERY_RUN_FOR_MS) return 0;
  return Math.min(MAX_BACKOFF_MS, 60_000 + (ageMs - EVERY_RUN_FOR_MS) / 2);
}

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

/** Runs `work` over `items`, at most `limit` at a time, until `keepGoing` says stop. */
async function inPool<T>(
  items: readonly T[],
  limit: number,
  keepGoing: () => boolean,
  work: (item: T) => Promise<void>,
) {
  let next = 0;
  const lane = async () => {
    while (next < items.length && keepGoing()) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * One run of the poller: takes the due tasks from the index, leases each before touching it, polls
 * the service, and posts each finished task's result once in its thread.
 *
 * Exactly once: the result is marked posted (a conditional write that only one caller wins) *before*
 * it is posted, and only once the channel's turn to post has come. A run that dies between the two, or a
 * Slack that never accepts the post, loses that one reply (the counts stay on the task, the contacts stay
 * unlocked in the service, and the failure is recorded); posting first would instead repeat the reply
 * whenever a run died after posting. Transient Slack errors are retried within the run, honouring
 * Retry-After, and a task is only started while enough of the Lambda's time is left for it.
 */
export async function pollUnlockTasks(deps: UnlockPollingDeps): Promise<PollSummary> {
  const owner = deps.owner ?? `poll-${randomUUID()}`;
  const remainingMs = deps.remainingMs ?? (() => Number.POSITIVE_INFINITY);
  const concurrency = Math.min(deps.concurrency ?? MAX_CONCURRENT_POLLS, MAX_CONCURRENT_POLLS);
  const summary = emptySummary();
  const hasTime = () => {
    if (remainingMs() >= TIME_RESERVE_MS) return true;
    summary.outOfTime = true;
    return false;
  };
  // A post may wait for Slack's Retry-After, but never past the Lambda's end.
  const paced = createChannelPacer({
    budgetMs: () => remainingMs() - 5_000,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  const post = (task: UnlockTask, send: () => Promise<void>) => paced(task.channelId, send);
  // The index is eventually consistent: a task seen once in this run is not taken again.
  const seen = new Set<string>();

  while (hasTime()) {
    const due = await deps.tasks.due({ now: deps.now(), limit: deps.batchSize ?? 50 });
    const fresh = due.filter((task) => !seen.has(task.taskId));
    if (fresh.length === 0) break;
    for (const task of fresh) seen.add(task.taskId);
    await inPool(fresh, concurrency, hasTime, async (task) => {
      const log = deps.logger.child({ taskId: task.taskId, team: task.teamId, channel: task.channelId });
      await withCorrelationId(task.taskId, async () => {
        try {
          await pollOne(task.taskId, { owner, deps, summary, log, post });
        } catch (error) {
          // One bad task never stops the others; its lease runs out and a later run takes it again.
          log.error('polling an unlock task failed', { error });
        }
      });
    });
  }
  deps.logger.info('unlock tasks polled', { ...summary });
  return summary;
}

/** A task's first polls, by the worker that submitted it: most tasks finish within seconds. */
export const EARLY_POLLS = { count: 4, everyMs: 5_000 };

/**
 * Polls one just-submitted task a few times (about 20 s), so a quick result is posted at once rather
 * at the next scheduled run. It leases the task like the scheduled poller, so the two never both act
 * on it; what is still running afterwards is left to the schedule. Returns whether the task finished.
 */
export async function pollSubmittedTask(
  taskId: string,
  deps: UnlockPollingDeps,
  polls: { count: number; everyMs: number } = EARLY_POLLS,
): Promise<boolean> {
  const owner = deps.owner ?? `early-${randomUUID()}`;
  const sleep = deps.sleep ?? realSleep;
  const summary = emptySummary();
  const paced = createChannelPacer({ budgetMs: () => polls.everyMs, sleep });
  const post = (task: UnlockTask, send: () => Promise<void>) => paced(task.channelId, send);
  const log = deps.logger.child({ taskId });
  for (let poll = 0; poll < polls.count; poll++) {
    await sleep(polls.everyMs);
    await pollOne(taskId, { owner, deps, summary, log, post });
    if (summary.posted + summary.timedOut > 0) return true;
  }
  return false;
}

interface RunState {
  owner: string;
  deps: UnlockPollingDeps;
  summary: PollSummary;
  log: Logger;
  /** Sends to the task's channel, paced and retried. */
  post: (task: UnlockTask, send: () => Promise<void>) => Promise<void>;
}

async function pollOne(taskId: string, run: RunState): Promise<void> {
  const { owner, deps, summary, log } = run;
  const task = await deps.tasks.lease(taskId, { owner, leaseMs: LEASE_MS });
  if (!task) {
    summary.skipped += 1;
    return;
  }
  if (task.serviceAccount && deps.accountId && task.serviceAccount !== deps.accountId)
    return stopOtherAccount(task, run);
  summary.polled += 1;
  const age = deps.now().getTime() - Date.parse(task.createdAt);
  if (task.followUp) return pollFollowUp(task, age, run);

  let progress: UnlockTaskProgress | undefined;
  try {
    progress = await deps.progress(task.kind, task.taskId);
  } catch (error) {
    // The service may be down for a while: keep backing off; the 24 h limit still applies.
    log.warn('could not read an unlock task from the service', { error });
  }

  if (progress && (progress.taskStatus === 'completed' || progress.taskStatus === 'failed')) {
    const result = unlockResultOf(task, progress);
    const outcome = outcomeOf(result);
    if (await finish(task, outcome, () => deps.thread.postResult(task, result), run)) summary.posted += 1;
    return;
  }

  if (age >= GIVE_UP_AFTER_MS) {
    const outcome: UnlockOutcome = {
      status: 'timed-out',
      unlocked: 0,
      notUnlocked: task.personnelIds.length - task.skipped.length,
      skipped: task.skipped.length,
    };
    if (await finish(task, outcome, () => deps.thread.postTimeout(task), run)) summary.timedOut += 1;
    return;
  }

  await pollLater(task, age, run);
}

async function pollFollowUp(task: UnlockTask, age: number, run: RunState): Promise<void> {
  const { deps, summary, log } = run;
  const followUps = deps.followUps;
  let progress: FollowUpProgress | undefined;
  try {
    progress = await followUps?.progress(task);
  } catch (error) {
    log.warn('could not read a follow-up from the service', { error });
  }
  if (followUps && progress?.done) {
    const result = progress.result;
    const posted = await finish(task, followUpOutcome(result), () => followUps.postResult(task, result), run);
    if (posted) summary.posted += 1;
    return;
  }
  // An unreadable service gets the unlocks' full day before the thread is told.
  if (followUps && age >= (progress ? FOLLOW_UP_GIVE_UP_AFTER_MS : GIVE_UP_AFTER_MS)) {
    const outcome = {
      status: 'timed-out' as const,
      unlocked: 0,
      notUnlocked: task.personnelIds.length,
      skipped: 0,
    };
    if (await finish(task, outcome, () => followUps.postTimeout(task), run)) summary.timedOut += 1;
    return;
  }
  await pollLater(task, age, run);
}

/** Why a task of a replaced key ends (kept on it). */
export const KEY_REPLACED_REASON = 'service key replaced';

/**
 * A task submitted with a key that is no longer the workspace's: stopped (only the poller that stops
 * it says so), and its thread told where the results are. A failed reply is logged: the task is over.
 */
async function stopOtherAccount(task: UnlockTask, run: RunState): Promise<void> {
  const { deps, summary, log } = run;
  if (!(await deps.tasks.stop(task.taskId, KEY_REPLACED_REASON))) {
    summary.skipped += 1;
    return;
  }
  summary.stopped += 1;
  log.info('stopped a task of a service key no longer connected');
  try {
    await run.post(task, () => deps.thread.postAccountChanged(task));
  } catch (error) {
    log.warn('could not say in the thread that the task was stopped', { error });
  }
}

/** Not finished yet: due again after the delay for its age (unlocks and follow-ups alike). */
async function pollLater(task: UnlockTask, age: number, run: RunState): Promise<void> {
  const { owner, deps, summary } = run;
  const nextPollAt = new Date(deps.now().getTime() + pollDelayMs(age));
  if (await deps.tasks.reschedule(task.taskId, { owner, nextPollAt, attempts: task.attempts + 1 }))
    summary.rescheduled += 1;
}

/** Another run marked the result first. */
class AlreadyPosted extends Error {}

/**
 * Marks the result posted, then posts it, inside the channel's paced slot: the mark is made only once
 * Slack's turn has come, so a run that has to stop while waiting for the slot gives the task back
 * untouched. Retries after a transient Slack error post again without marking again. A failure after
 * the mark is recorded on the task, never rethrown. True when the reply was posted.
 */
async function finish(
  task: UnlockTask,
  outcome: UnlockOutcome,
  send: () => Promise<void>,
  run: RunState,
): Promise<boolean> {
  const { owner, deps, summary, log } = run;
  let marked = false;
  try {
    await run.post(task, async () => {
      if (!marked) {
        if (!(await deps.tasks.markResultPosted(task.taskId, { owner, outcome }))) throw new AlreadyPosted();
        marked = true;
      }
      await send();
    });
  } catch (error) {
    if (error instanceof AlreadyPosted) {
      summary.skipped += 1;
      return false;
    }
    if (!marked) {
      // Nothing was marked or posted: the next run takes the task again at once.
      log.warn('result not posted yet, left for the next run', { error });
      await deps.tasks.reschedule(task.taskId, { owner, nextPollAt: deps.now(), attempts: task.attempts });
      return false;
    }
    summary.slackFailures += 1;
    const reason = error instanceof SlackDeliveryError ? error.slackError : 'unexpected_error';
    if (isChannelGone(error)) log.warn('the thread cannot be posted to any more', { slackError: reason });
    else log.error('posting an unlock result failed', { error, slackError: reason });
    await deps.tasks.recordSlackFailure(task.taskId, reason);
    return false;
  }
  // How long the finished task waited, from when its poll was due to its reply: the schedule's lag.
  deps.metrics?.add('PollLag', Math.max(0, deps.now().getTime() - Date.parse(task.nextPollAt)));
  // A follow-up has no card of its own to update: the unlock's card stays as it is.
  if (!task.followUp) await updateCard(task, outcome, run);
  return true;
}

/**
 * Not paced: Slack's one-message-a-second per channel is for posts, and an edit in the channel's slot
 * held a poll lane through the gap after the reply (4 results a second instead of 19 in the bench).
 */
async function updateCard(task: UnlockTask, outcome: UnlockOutcome, run: RunState) {
  try {
    await run.deps.thread.updateCard(task, outcome);
  } catch (error) {
    run.log.warn('could not update the unlock card', { error });
  }
}

/** A run that polled nothing. */
export function emptySummary(): PollSummary {
  return {
    polled: 0,
    posted: 0,
    timedOut: 0,
    rescheduled: 0,
    slackFailures: 0,
    skipped: 0,
    stopped: 0,
    outOfTime: false,
  };
}
