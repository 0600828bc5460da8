import { EisBadInputError, EisError, EisNotFoundError, referenceOf } from '../../eis/errors.ts';
import { AppError, ValidationError } from '../../platform/errors.ts';
import { type Job, JobSchema } from '../kit/jobs.ts';
import { errorMessage, notFoundText } from '../views/messages.ts';
import { answerer } from '../kit/answer.ts';
import { chargeJobs } from '../features/charges/jobs.ts';
import { buttonWords, commandJobs } from './commands.ts';
import type { WorkerDeps } from '../kit/worker-deps.ts';
import { homeJobs } from '../features/home/jobs.ts';
import { followUpJobs } from '../features/follow-up/jobs.ts';
import { planCanvasAfterCharge, planCommandDeps } from '../features/plan/jobs.ts';
import { planBudgetCheck } from '../features/plan/budget-check.ts';
import { withBookingCharges } from '../../domain/charge-booked.ts';
import { exportJobs } from '../features/lists/export-jobs.ts';
import { shareAndPageJobs } from './share-page.ts';
import { unfurlJobs } from '../features/unfurls/jobs.ts';
import { workflowStepJobs } from '../features/workflow-step/jobs.ts';
import { watchImportJobs } from '../features/watch/import-jobs.ts';
import { compareJobs } from '../features/compare/jobs.ts';

export type { WorkerDeps, WorkerStore } from '../kit/worker-deps.ts';

type JobOf = { [Kind in Job['kind']]: Extract<Job, { kind: Kind }> };
/** One handler per kind of job: a kind added to `Job` does not compile until it is handled here. */
type JobHandlers = { [Kind in Job['kind']]: (job: JobOf[Kind]) => Promise<void> };

// Generic over the kind, so that TypeScript pairs each job with its own kind's handler.
const runJob = <Kind extends Job['kind']>(handlers: JobHandlers, kind: Kind, job: JobOf[Kind]) =>
  handlers[kind](job);

const isUserError = (error: unknown): error is EisError | ValidationError =>
  error instanceof EisNotFoundError || error instanceof EisBadInputError || error instanceof ValidationError;

/** A failed job in the user's words, with the service's reference when it gave one. */
function failureText(error: unknown, job: Job): string {
  const commandText =
    job.kind === 'command' ? job.text : job.kind === 'button' ? buttonWords(job) : undefined;
  const userMessage =
    error instanceof EisNotFoundError && commandText !== undefined
      ? notFoundText(commandText)
      : error instanceof EisError || error instanceof AppError
        ? error.userMessage
        : 'Something went wrong on our side. Please try again.';
  const reference = referenceOf(error);
  return reference ? `${userMessage} ${reference}` : userMessage;
}

/**
 * The worker's boundary: parses the payload, runs it once, and turns any error into one log line and a
 * message in the user's words. It never throws: a failed job is told to its user, not retried.
 */
function jobBoundary({ store, slack, logger }: WorkerDeps, run: (job: Job) => Promise<void>) {
  return async (payload: unknown): Promise<void> => {
    const parsed = JobSchema.safeParse(payload);
    if (!parsed.success) {
      logger.error('worker got a malformed job', { issues: parsed.error.issues.length });
      return;
    }
    const job = parsed.data;
    const { teamId, channelId, userId } = job.context;
    const log = logger.child({ team: teamId, channel: channelId, user: userId, job: job.kind });
    try {
      if (!(await store.deliveries.first(`job:${job.id}`))) {
        log.info('job delivered again: ignored');
        return;
      }
      await run(job);
    } catch (error) {
      // A user's mistake (an unknown id, bad input) is an answer, not a failure of the bot.
      if (isUserError(error)) log.info('job answered with a user error', { code: error.code });
      else log.error('job failed', { error });
      // The service's reference goes only to the person who asked (this answer is ephemeral).
      await slack
        .ephemeral(job.context, errorMessage(failureText(error, job)), {
          replaceOriginal: job.context.placeholder ?? false,
        })
        .catch((notifyError: unknown) =>
          log.error('could not tell the user about a failed job', { error: notifyError }),
        );
    }
  };
}

/** Every charge a job books (a confirmed one, a LinkedIn analysis) is followed by the plan's budget check. */
function withChargesBooked(deps: WorkerDeps): WorkerDeps {
  const { store, slack, logger } = deps;
  const check = planBudgetCheck({
    plans: store.plans,
    ledger: store.ledger,
    logger,
    postInChannel: (charge, message) => slack.post(charge, message),
  });
  return { ...deps, store: withBookingCharges(store, check, logger) };
}

/** Runs the slow half of every Slack interaction, after the HTTP request was answered. */
export function createWorker(given: WorkerDeps) {
  const deps = withChargesBooked(given);
  const answer = answerer(deps.slack);
  const home = homeJobs(deps);
  const followUps = followUpJobs(deps);
  const charges = chargeJobs(deps, {
    // LinkedIn activity is charged the shared way, but its card is the follow-up's own (in the thread).
    chargeShownBy: { 'linkedin-activity': followUps.linkedinChargeJob },
    afterCharge: [
      // The Home of who asked and who confirmed shows the outcome (published whether or not they ever
      // opened it: Slack keeps it for their next visit).
      home.publishAfterCharge,
      planCanvasAfterCharge(planCommandDeps(deps)),
    ],
  });
  const commands = commandJobs(deps, answer, charges.askToConfirm);
  const buttons = shareAndPageJobs(deps, answer, commands.runCommand);
  const handlers: JobHandlers = {
    command: commands.commandJob,
    button: commands.buttonJob,
    share: buttons.shareJob,
    page: buttons.pageJob,
    charge: charges.runChargeJob,
    unfurl: unfurlJobs(deps).unfurlJob,
    'workflow-step': workflowStepJobs(deps).workflowStepJob,
    home: home.homeJob,
    'follow-up': followUps.followUpJob,
    export: exportJobs(deps).exportJob,
    'watch-import': watchImportJobs(deps).watchImportJob,
    compare: compareJobs(deps, answer).compareJob,
  };
  return { handle: jobBoundary(deps, (job) => runJob(handlers, job.kind, job)) };
}

export type Worker = ReturnType<typeof createWorker>;
