import { randomUUID } from 'node:crypto';
import { type Logger, withCorrelationId } from '../platform/log.ts';
import { type FollowUpProgress, type FollowUpResult, followUpOutcome, type ReadWithin } from './follow-up.ts';
import { callsOf, type PollCalls, takingTurns } from './poll-shares.ts';
import { finish } from './unlock-posting.ts';
import type { Metrics, UnlockKind, UnlockTask, UnlockTaskRepository } from './ports/index.ts';
import { inPool } from './pool.ts';
import { EARLY_POLLS, FOLLOW_UP_GIVE_UP_AFTER_MS, GIVE_UP_AFTER_MS, nextPollAt } from './poll-cadence.ts';
import { createChannelPacer, realSleep, type Sleep } from './slack-delivery.ts';
import {
  outcomeOf,
  timedOutOutcome,
  type UnlockOutcome,
  type UnlockResult,
  type UnlockTaskProgress,
  unlockResultOf,
} from './unlock-result.ts';
import { type UnlockWaiting, unlockWaitingOf, waitingShownKey } from './unlock-waiting.ts';

/**
 * At most this many tasks are polled at once. Their service calls are counted apart, by the key's
 * share for polls (`PollCalls`): a task may make several (a follow-up reads each of its people).
 */
export const MAX_CONCURRENT_POLLS = 5;

/** Longer than one task's poll and post with their retries, so a live run never loses its lease. */
export const LEASE_MS = 2 * 60_000;
/** A task is started only with this much of the Lambda's time left: its poll and post must fit. */
export const TIME_RESERVE_MS = 20_000;

/** Where results go: the thread of the card the unlock was confirmed on. Errors are `SlackDeliveryError`s. */
export interface UnlockThread {
  postResult(task: UnlockTask, result: UnlockResult): Promise<void>;
  postTimeout(task: UnlockTask): Promise<void>;
  /** Rewrites the card's status line; a failure here is logged, the reply is what matters. */
  updateCard(task: UnlockTask, outcome: UnlockOutcome): Promise<void>;
  /** Shows on the card that the service is still working on the task, and since when. */
  showWaiting(task: UnlockTask, waiting: UnlockWaiting): Promise<void>;
  /** Says the task was submitted with a key no longer connected: its results are on that account. */
  postAccountChanged(task: UnlockTask): Promise<void>;
}

/**
 * Follow-up tasks (outreach drafts, LinkedIn activity) in an unlock's thread, polled with the unlock
 * tasks under the same leases and the same post-then-mark rule. Errors are `SlackDeliveryError`s.
 */
export interface FollowUpPolling {
  /** Each of its reads is made through `within`. */
  progress(task: UnlockTask, within: ReadWithin): Promise<FollowUpProgress>;
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
  /** Every service call of a poll runs through it; calls at once are bounded by tasks alone without it. */
  calls?: PollCalls;
  thread: UnlockThread;
  /** Without it, follow-up tasks are left due (backed off) for a run that has it. */
  followUps?: FollowUpPolling;
  logger: Logger;
  now: () => Date;
  /** The Lambda's remaining time; unlimited when absent. */
  remainingMs?: () => number;
  /** When the scheduled run this pass is part of started: an older task is due when a later one starts. */
  runStartedAt?: Date;
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
 * One run of the poller: takes the due tasks from the index, leases each before touching it, polls
 * the service, and posts each finished task's result once in its thread.
 *
 * Nothing lost: posting is a leased step. The poll's lease is held while the reply is posted, and the
 * result is marked posted (a conditional write that only one caller wins) after Slack took it
 * (`finish`, unlock-posting.ts). A run that dies before the mark leaves the task leased and unmarked:
 * once the lease runs out, a later run reads the service again and posts the reply. Only a run that
 * dies in the instant between Slack's answer and the mark would have its reply posted twice. Transient
 * Slack errors are retried within the run, honouring Retry-After, then at later polls; a task is only
 * started while enough of the Lambda's time is left for it.
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
    const fresh = takingTurns(due.filter((task) => !seen.has(task.taskId)));
    if (fresh.length === 0) break;
    for (const task of fresh) seen.add(task.taskId);
    await inPool(
      fresh,
      concurrency,
      async (task) => {
        const log = deps.logger.child({ taskId: task.taskId, team: task.teamId, channel: task.channelId });
        await withCorrelationId(task.taskId, async () => {
          try {
            await pollOne(task.taskId, { owner, deps, summary, log, post });
          } catch (error) {
            // One bad task never stops the others; its lease runs out and a later run takes it again.
            log.error('polling an unlock task failed', { error });
          }
        });
      },
      hasTime,
    );
  }
  deps.logger.info('unlock tasks polled', { ...summary });
  return summary;
}

/**
 * Polls one just-submitted task at the young cadence, so a quick result is posted at once rather than
 * at the next scheduled run. It leases the task like the scheduled poller, so the two never both act
 * on it, and stops once a scheduled run has taken the task over (it held the lease, or polled the task
 * since this did). Returns whether the task finished.
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
  let attemptsAfterOurs: number | undefined;
  for (let poll = 0; poll < polls.count; poll++) {
    await sleep(polls.everyMs);
    const leased = await pollOne(taskId, { owner, deps, summary, log, post, everyMs: polls.everyMs });
    if (summary.posted + summary.timedOut > 0) return true;
    const pollsSinceOurs = attemptsAfterOurs !== undefined && leased?.attempts !== attemptsAfterOurs;
    if (!leased || pollsSinceOurs) return false;
    attemptsAfterOurs = leased.attempts + 1;
  }
  return false;
}

export interface RunState {
  owner: string;
  deps: UnlockPollingDeps;
  summary: PollSummary;
  log: Logger;
  /** Sends to the task's channel, paced and retried. */
  post: (task: UnlockTask, send: () => Promise<void>) => Promise<void>;
  /** The worker's first polls: the task is due again at the worker's next one. */
  everyMs?: number;
}

/** Leases and polls one task; returns it as leased (null when another poller holds it). */
async function pollOne(taskId: string, run: RunState): Promise<UnlockTask | null> {
  const { owner, deps, summary } = run;
  const task = await deps.tasks.lease(taskId, { owner, leaseMs: LEASE_MS });
  if (!task) {
    summary.skipped += 1;
    return null;
  }
  if (task.serviceAccount && deps.accountId && task.serviceAccount !== deps.accountId)
    await stopOtherAccount(task, run);
  else {
    summary.polled += 1;
    const age = deps.now().getTime() - Date.parse(task.createdAt);
    await (task.followUp ? pollFollowUp(task, age, run) : pollUnlock(task, age, run));
  }
  return task;
}

async function pollUnlock(task: UnlockTask, age: number, run: RunState): Promise<void> {
  const { deps, summary, log } = run;

  let progress: UnlockTaskProgress | undefined;
  try {
    progress = await callsOf(task, deps)(() => deps.progress(task.kind, task.taskId));
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
    const outcome = timedOutOutcome(task);
    if (await finish(task, outcome, () => deps.thread.postTimeout(task), run)) summary.timedOut += 1;
    return;
  }

  await pollLater(task, age, run, await showWaiting(task, age, run));
}

/**
 * Rewrites the card's waiting line when its words changed since it was last shown (at most every
 * 15 s); returns what it now shows. A failed rewrite is logged and tried again at the next poll.
 */
async function showWaiting(task: UnlockTask, age: number, run: RunState): Promise<string | undefined> {
  const waiting = unlockWaitingOf(task, age);
  const key = waitingShownKey(waiting);
  if (key === task.waitingShown) return undefined;
  try {
    await run.deps.thread.showWaiting(task, waiting);
    return key;
  } catch (error) {
    run.log.warn('could not show on the card that the unlock is running', { error });
    return undefined;
  }
}

async function pollFollowUp(task: UnlockTask, age: number, run: RunState): Promise<void> {
  const { deps, summary, log } = run;
  const followUps = deps.followUps;
  let progress: FollowUpProgress | undefined;
  try {
    progress = await followUps?.progress(task, callsOf(task, deps));
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
  await pollLater(task, age, run, undefined, progress?.settled);
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
async function pollLater(
  task: UnlockTask,
  age: number,
  run: RunState,
  waitingShown?: string,
  followUpSettled?: string[],
) {
  const { owner, deps, summary } = run;
  const next = {
    owner,
    nextPollAt: run.everyMs
      ? new Date(deps.now().getTime() + run.everyMs)
      : nextPollAt(age, deps.now(), deps.runStartedAt),
    attempts: task.attempts + 1,
    ...(waitingShown === undefined ? {} : { waitingShown }),
    ...(followUpSettled === undefined ? {} : { followUpSettled }),
  };
  if (await deps.tasks.reschedule(task.taskId, next)) summary.rescheduled += 1;
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
