import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../kit/listener-deps.ts';

/** The step's `callback_id`, as declared under `functions` in the app manifests. */
export const EVENT_FIT_SCORE_STEP = 'event_fit_score';

/** A step input as text: Workflow Builder may hand a number where a string was declared. */
const inputText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/**
 * The Workflow Builder custom step "Event fit score" (`function_executed`). It acks, then hands the
 * execution id and the input to the worker, which fetches the fit score and completes the step. The
 * event's workflow token (`bot_access_token`) is deliberately not handed on, nor logged: the worker
 * completes with the bot token (see `createWorkflowStepOut`).
 */
export function registerWorkflowStep(app: App, deps: ListenerDeps): void {
  app.function(
    EVENT_FIT_SCORE_STEP,
    { autoAcknowledge: false },
    async ({ ack, event, body, context, fail }) => {
      await ack();
      try {
        await deps.dispatch({
          kind: 'workflow-step',
          id: `step:${event.function_execution_id}`,
          functionExecutionId: event.function_execution_id,
          eventId: inputText(event.inputs.event_id).slice(0, 500),
          // A workflow step belongs to no channel or user of its own.
          context: { teamId: context.teamId ?? body.team_id, channelId: 'workflow', userId: 'workflow' },
        });
      } catch (error) {
        deps.logger.error('could not hand the workflow step to the worker', { error });
        // Said to the workflow at once, rather than left "in progress" until Slack gives up on it.
        await fail({
          error: 'eventbot could not start the fit score just now. Please run the workflow again.',
        }).catch((failError: unknown) =>
          deps.logger.error('could not fail the workflow step', { error: failError }),
        );
      }
    },
  );
}
