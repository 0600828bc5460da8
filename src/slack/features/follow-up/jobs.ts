import { publishConfirmation } from '../../../domain/confirmation-publishing.ts';
import { chargeOutcomeLines, describeAction, describeStoredAction } from '../../kit/charge-words.ts';
import type { ConfirmationDeps } from '../../../domain/confirmations.ts';
import { whoMayConfirm } from '../../../domain/approval.ts';
import { runCharge, storedOutcome } from '../../../domain/confirmations.ts';
import { DEFAULT_OUTREACH, startOutreach } from '../../../domain/follow-up.ts';
import { requestLinkedinActivity } from '../../../domain/linkedin-activity.ts';
import type { Confirmation } from '../../../domain/ports/index.ts';
import type { WebClient } from '@slack/web-api';
import type { FollowUpPolling } from '../../../domain/unlock-polling.ts';
import type { Job, JobContext } from '../../kit/jobs.ts';
import { replyInThread } from '../../scheduled.ts';
import { failureWords, storedConfirmationCard } from '../../kit/recorded-card.ts';
import { botNotice } from '../../views/messages.ts';
import {
  followUpReply,
  followUpTimeoutReply,
  linkedinFinalCard,
  linkedinPendingCard,
  outreachStartedNotice,
} from './views.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';

type FollowUpJob = Extract<Job, { kind: 'follow-up' }>;

/** The follow-up under an email unlock's results: outreach drafts, and LinkedIn activity's charge. */
export function followUpJobs(deps: WorkerDeps) {
  const { slack, store, logger } = deps;
  const chargeDeps = chargeDepsOf(deps);

  async function draftOutreach(job: FollowUpJob, threadTs: string) {
    const started = await startOutreach(
      job.personnelIds,
      {
        teamId: job.context.teamId,
        channelId: job.context.channelId,
        threadTs,
        requestedBy: job.context.userId,
        ...(job.names ? { names: job.names } : {}),
        ...(job.eventId ? { fromEventId: job.eventId } : {}),
        requestId: job.id,
      },
      { eis: deps.eis, tasks: store.unlockTasks, logger, now: deps.now },
      job.outreach ?? DEFAULT_OUTREACH,
    );
    await slack.ephemeral(
      job.context,
      outreachStartedNotice({ drafting: started.drafting.length, skipped: started.skipped }, job.names),
    );
    // Drafts are usually ready within seconds: the worker's early polls post them without waiting a minute.
    if (started.taskId) await deps.pollSubmittedTask(started.taskId);
  }

  async function askLinkedin(job: FollowUpJob, threadTs: string) {
    const action = {
      personnelIds: job.personnelIds.slice(0, 20),
      ...(job.names ? { names: job.names } : {}),
      threadTs,
    };
    const requested = await requestLinkedinActivity(action, job.context, chargeDeps);
    const { confirmation, balance } = requested;
    const card = {
      description: describeAction(requested.action),
      requestedBy: job.context.userId,
      mayConfirm: whoMayConfirm(confirmation.price, job.context.userId, await deps.policyIn(confirmation.channelId)),
      confirmationId: confirmation.id,
      balance,
      deadline: confirmation.deadline,
    };
    await publishConfirmation(
      confirmation.id,
      {
        show: () => slack.post(job.context, linkedinPendingCard({ ...card, buttons: false }), threadTs),
        arm: (ts) => slack.update(job.context.channelId, ts, linkedinPendingCard({ ...card, buttons: true })),
        close: (ts, message) =>
          slack.update(job.context.channelId, ts, finalCard(confirmation, [message], false)),
      },
      { confirmations: store.confirmations, logger },
    );
  }

  async function followUpJob(job: FollowUpJob) {
    const threadTs = job.context.threadTs ?? job.context.messageTs;
    if (!threadTs)
      return slack.ephemeral(job.context, botNotice('This button only works under unlock results.'));
    return job.followUp === 'outreach' ? draftOutreach(job, threadTs) : askLinkedin(job, threadTs);
  }

  /**
   * The charge job of a LinkedIn activity confirmation (the shared Confirm claimed it): the shared
   * charge, shown on the follow-up's own card.
   */
  async function linkedinChargeJob(confirmationId: string, context: JobContext): Promise<void> {
    const result = await runCharge(confirmationId, chargeDeps, context.messageTs);
    if (result.kind !== 'settled') return;
    const { confirmation } = result;
    const ts = confirmation.messageTs ?? context.messageTs;
    const outcome = storedOutcome(confirmation);
    const succeeded = confirmation.status === 'succeeded';
    const lines = succeeded
      ? chargeOutcomeLines(outcome)
      : [failureWords(confirmation) ?? 'That did not work.'];
    try {
      if (ts) await slack.update(confirmation.channelId, ts, finalCard(confirmation, lines, succeeded));
      // Marked shown, so the reconciler does not replace this card with the generic one.
      await store.confirmations.cardShown(confirmation.id, confirmation.status);
    } catch (error) {
      logger.error('could not update the LinkedIn activity card', { confirmationId, error });
    }
    if (result.taskId) await deps.pollSubmittedTask(result.taskId);
  }

  return { followUpJob, linkedinChargeJob };
}

function chargeDepsOf(deps: WorkerDeps): ConfirmationDeps {
  return {
    eis: deps.eis,
    confirmations: deps.store.confirmations,
    charges: deps.store.charges,
    policyIn: deps.policyIn,
    accountId: deps.accountId,
    logger: deps.logger,
    now: deps.now,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  };
}

function finalCard(confirmation: Confirmation, lines: readonly string[], succeeded: boolean) {
  const outcome = storedOutcome(confirmation);
  // Charged or not, the service never said: headed as such, as every charge's card is.
  if (!succeeded && outcome.outcomeUnknown) return storedConfirmationCard(confirmation);
  return linkedinFinalCard({
    description: describeStoredAction(confirmation.action),
    requestedBy: confirmation.requestedBy,
    confirmedBy: confirmation.confirmedBy ?? confirmation.requestedBy,
    succeeded,
    lines,
    creditsSpent: outcome.creditsSpent,
    balanceAfter: outcome.balanceAfter,
  });
}

/** Where finished follow-ups (outreach drafts, LinkedIn activity) are told: the unlock's thread. */
export function followUpThread(web: WebClient, progress: FollowUpPolling['progress']): FollowUpPolling {
  const reply = replyInThread(web);
  return {
    progress,
    async postResult(task, result) {
      await reply(task.channelId, task.threadTs, followUpReply(result, task.names));
    },
    async postTimeout(task) {
      await reply(task.channelId, task.threadTs, followUpTimeoutReply(task));
    },
  };
}
