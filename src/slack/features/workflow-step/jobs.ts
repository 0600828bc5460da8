import type { WebClient } from '@slack/web-api';
import { EVENT_ID_PATTERN } from '../../../domain/ids.ts';
import { EisNotFoundError } from '../../../eis/errors.ts';
import { AppError } from '../../../platform/errors.ts';
import type { Job } from '../../kit/jobs.ts';
import { slackErrorCode } from '../../slack-errors.ts';
import { fitBand } from '../../views/fit-band.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import type { EventFitOutputs, WorkflowStepOut } from '../../kit/outs.ts';

type WorkflowStepJob = Extract<Job, { kind: 'workflow-step' }>;

/**
 * Completes steps with the bot token the worker already holds, not the workflow token
 * (`bot_access_token`, `xwfp-…`) of the `function_executed` event. Slack's `functions.completeSuccess`
 * and `functions.completeError` accept a bot token ("Bot tokens: no scope required"); the workflow token
 * is a per-run secret that would otherwise travel in the worker's invoke payload (Lambda's event queue,
 * its retries, any failure destination) and it expires 15 minutes after it is issued, which a queued
 * job could outlive. So it never leaves the Slack function's request.
 */
export function createWorkflowStepOut(web: WebClient): WorkflowStepOut {
  return {
    async complete(functionExecutionId, outputs) {
      await web.functions.completeSuccess({ function_execution_id: functionExecutionId, outputs });
    },
    async fail(functionExecutionId, error) {
      await web.functions.completeError({ function_execution_id: functionExecutionId, error });
    },
  };
}

type StepOutcome =
  | { ok: true; outputs: EventFitOutputs }
  /** `unexpected`: a failure of the service or the bot (logged), not a wrong id. */
  | { ok: false; error: string; unexpected?: unknown };

/** What the step says when it fails, in words a workflow's builder can act on. */
function failureOf(error: unknown, eventId: string): string {
  if (error instanceof EisNotFoundError)
    return `No event with id ${eventId} was found. Check the event id given to the "Event fit score" step.`;
  if (error instanceof AppError) return error.userMessage;
  return 'The fit score could not be fetched just now. Please run the workflow again.';
}

async function fitOutputs(input: string, { eis }: Pick<WorkerDeps, 'eis'>): Promise<StepOutcome> {
  const eventId = input.trim();
  if (!EVENT_ID_PATTERN.test(eventId)) {
    const shown = eventId ? `"${eventId.slice(0, 40)}" is not an event id` : 'No event id was given';
    return { ok: false, error: `${shown}: use the number in the event's link, e.g. 26855.` };
  }
  try {
    const [fit, detail] = await Promise.all([
      eis.events.fitScore(eventId),
      eis.events.detail(eventId).catch(() => null),
    ]);
    const score = Number.isFinite(fit.score) ? Math.min(10, Math.max(0, fit.score)) : 0;
    const start = fit.event.dateStart ?? detail?.dateStart;
    return {
      ok: true,
      outputs: {
        event_name: fit.event.name?.trim() || detail?.name?.trim() || `Event ${fit.event.eventId}`,
        score: Math.round(score * 10) / 10,
        band: fitBand(score, fit.recommendation),
        ...(start ? { start_date: start } : {}),
      },
    };
  } catch (error) {
    const expected = error instanceof EisNotFoundError;
    return { ok: false, error: failureOf(error, eventId), ...(expected ? {} : { unexpected: error }) };
  }
}

/**
 * The "Event fit score" step: the fit score of the event id it was given, or a clear failure. It
 * never throws: whatever happens, the run is ended one way or the other (a step left open would sit
 * "in progress" until Slack gives up on it), and a failure is logged without the workflow's inputs.
 */
export function workflowStepJobs({
  eis,
  workflowSteps,
  logger,
}: Pick<WorkerDeps, 'eis' | 'workflowSteps' | 'logger'>) {
  async function workflowStepJob({ functionExecutionId, eventId }: WorkflowStepJob): Promise<void> {
    const log = logger.child({ functionExecutionId });
    if (!workflowSteps) {
      log.error('the worker has no functions.complete client: the step stays open');
      return;
    }
    const outcome = await fitOutputs(eventId, { eis });
    try {
      if (outcome.ok) {
        await workflowSteps.complete(functionExecutionId, outcome.outputs);
        log.info('workflow step completed', { band: outcome.outputs.band });
      } else {
        if (outcome.unexpected) log.warn('the fit score could not be fetched', { error: outcome.unexpected });
        await workflowSteps.fail(functionExecutionId, outcome.error);
        log.info('workflow step failed', { reason: outcome.error });
      }
    } catch (error) {
      log.error('could not end the workflow step', { slackError: slackErrorCode(error) ?? 'unknown' });
    }
  }

  return { workflowStepJob };
}
