import type { Logger } from '../platform/log.ts';
import type { Sleep } from './slack-delivery.ts';
import { RUN_EVERY_MS } from './poll-cadence.ts';
import { emptySummary, type PollSummary, TIME_RESERVE_MS } from './unlock-polling.ts';

/** Between two looks at the due index, so a task submitted meanwhile is seen within this. */
export const MAX_NAP_MS = 5_000;

/** One pass over the due tasks (every workspace's, fairly), each finished one posted once. */
export type PollPass = (pass: { remainingMs: () => number; runStartedAt: Date }) => Promise<PollSummary>;

export interface PollRunDeps {
  pass: PollPass;
  /** When the first task falls due after `after` and no later than `before`, if one does. */
  nextDue: (window: { after: Date; before: Date }) => Promise<Date | undefined>;
  now: () => Date;
  /** How the run waits for its next due task (tests and the bench move a clock instead). */
  sleep: Sleep;
  logger: Logger;
  /** The Lambda's remaining time; unlimited when absent. */
  remainingMs?: () => number;
  /** How long the run starts new polls for: the schedule's period, so each minute is covered once. */
  runForMs?: number;
}

export interface PollRunSummary extends PollSummary {
  passes: number;
}

/**
 * One scheduled run of the poller: a pass over what is due now, then, while a task falls due before
 * the run's minute is up, a nap until it does and another pass. A young task (polled every few
 * seconds) is so answered within a step of finishing; an older one is due when a run starts, so no run
 * waits for it. With nothing due before its end the run ends at once: an idle minute costs one query.
 *
 * Runs overlap at the minute's edge (a pass started near the end finishes in the next run's time):
 * every poll leases its task, so two runs never act on one task, and a result is posted once.
 */
export async function pollTasksForAMinute(deps: PollRunDeps): Promise<PollRunSummary> {
  const startedAt = deps.now();
  const endsAt = startedAt.getTime() + (deps.runForMs ?? RUN_EVERY_MS);
  const lambdaLeft = deps.remainingMs ?? (() => Number.POSITIVE_INFINITY);
  // A pass starts no poll after the run's end, nor without the reserve a poll needs of the Lambda.
  const remainingMs = () => Math.min(lambdaLeft(), endsAt - deps.now().getTime() + TIME_RESERVE_MS);
  let summary: PollRunSummary = { ...emptySummary(), passes: 0 };
  let passStartedAt = startedAt;
  for (;;) {
    const passed = await deps.pass({ remainingMs, runStartedAt: startedAt });
    summary = addUp(summary, passed);
    if (passed.outOfTime) break;
    // Due before this pass began and still due: not takeable now (another run's lease, a paused
    // workspace); the next run's first pass tries it again.
    const next = await nextDueAfter(deps, passStartedAt, endsAt, remainingMs);
    if (!next) break;
    passStartedAt = deps.now();
  }
  deps.logger.info('poll run ended', { ...summary, ranForMs: deps.now().getTime() - startedAt.getTime() });
  return summary;
}

/**
 * Naps until a task falls due (after `after`, before the run ends), looking again every
 * `MAX_NAP_MS`; false when none will within the run's time.
 */
async function nextDueAfter(
  deps: PollRunDeps,
  after: Date,
  endsAt: number,
  remainingMs: () => number,
): Promise<boolean> {
  for (;;) {
    if (remainingMs() < TIME_RESERVE_MS) return false;
    const next = await deps.nextDue({ after, before: new Date(endsAt - 1) });
    if (!next) return false;
    const wait = next.getTime() - deps.now().getTime();
    if (wait <= 0) return true;
    await deps.sleep(Math.min(wait, MAX_NAP_MS));
    if (wait <= MAX_NAP_MS) return true;
  }
}

function addUp(run: PollRunSummary, pass: PollSummary): PollRunSummary {
  return {
    polled: run.polled + pass.polled,
    posted: run.posted + pass.posted,
    timedOut: run.timedOut + pass.timedOut,
    rescheduled: run.rescheduled + pass.rescheduled,
    slackFailures: run.slackFailures + pass.slackFailures,
    skipped: run.skipped + pass.skipped,
    stopped: run.stopped + pass.stopped,
    outOfTime: run.outOfTime || pass.outOfTime,
    passes: run.passes + 1,
  };
}
