import type { Logger } from '../../../platform/log.ts';
import type { Store } from '../../../store/index.ts';
import { WorkspaceNotConnectedError } from '../../../platform/errors.ts';
import { JobSchema } from '../../kit/jobs.ts';
import { slackErrorCode } from '../../slack-errors.ts';
import type { HomeView } from '../../views/types.ts';
import { errorMessage } from '../../views/messages.ts';
import { connectHomeView } from './views.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import type { WorkflowStepOut } from '../../kit/outs.ts';

export interface NotConnectedDeps {
  deliveries: Pick<Store['deliveries'], 'first'>;
  slack: Pick<SlackOut, 'ephemeral'>;
  workflowSteps: WorkflowStepOut;
  publishHome: (userId: string, view: HomeView) => Promise<void>;
  logger: Logger;
}

/**
 * The worker of a workspace that has no service key (it was removed after the request was let
 * through, or whether one was connected could not be read then): each job is answered, never run, so
 * nothing is asked of the service or charged. A workflow step is completed with the refusal (else it
 * would sit "in progress"), a Home shows how to connect, an unfurl is left alone, and anything else is
 * told to its user where its answer would have gone.
 */
export function notConnectedWorker({
  deliveries,
  slack,
  workflowSteps,
  publishHome,
  logger,
}: NotConnectedDeps) {
  return {
    async handle(payload: unknown): Promise<void> {
      const parsed = JobSchema.safeParse(payload);
      if (!parsed.success) return;
      const job = parsed.data;
      const { teamId, userId } = job.context;
      const log = logger.child({ team: teamId, user: userId, job: job.kind });
      const text = new WorkspaceNotConnectedError(teamId).userMessage;
      try {
        if (!(await deliveries.first(`job:${job.id}`))) return;
        log.info('job of a workspace without a service key answered, not run');
        if (job.kind === 'workflow-step') await workflowSteps.fail(job.functionExecutionId, text);
        else if (job.kind === 'home') await publishHome(userId, connectHomeView(text));
        else if (job.kind !== 'unfurl')
          await slack.ephemeral(job.context, errorMessage(text), {
            replaceOriginal: job.context.placeholder ?? false,
          });
      } catch (error) {
        log.error('could not tell a workspace without a service key', {
          slackError: slackErrorCode(error) ?? 'unknown',
        });
      }
    },
  };
}
