import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Job, JobContext } from './jobs.ts';
import type { FormResult, ViewValues } from './modal-forms.ts';
import type { ListenerDeps } from './listener-deps.ts';
import { openModal } from './interaction.ts';
import type { FormId } from '../views/form-ids.ts';

type Submission = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** Who submitted a modal. */
export type Who = Pick<JobContext, 'teamId' | 'userId'>;

/** What a submission becomes: field errors for the modal, or the job that answers it. */
export type Verdict = FormResult<Omit<Job, 'id'>>;

/** How a room reads its modal's submission: its form, and the job that answers it where it should go. */
export type ModalReader = (values: ViewValues, view: Submission['view'], who: Who) => Verdict;

/**
 * A room's modal submission (`callbackId`): field errors shown in the modal, else the job handed to the
 * worker and the modal closed.
 */
export function registerModalSubmission(
  app: App,
  deps: ListenerDeps,
  /** A declared form (views/form-ids.ts): whom it is for is checked before this runs. */
  callbackId: FormId,
  read: ModalReader,
): void {
  app.view<ViewSubmitAction>(callbackId, async ({ ack, body, view }: Submission) => {
    const log = deps.logger.child({
      team: body.team?.id ?? body.user.team_id,
      user: body.user.id,
      modal: view.callback_id,
    });
    const who: Who = { teamId: body.team?.id ?? body.user.team_id ?? 'unknown', userId: body.user.id };
    const verdict = read(view.state.values, view, who);
    if (!verdict.ok) {
      log.info('modal submission refused', { fields: Object.keys(verdict.errors) });
      // No field to show an error on (an out-of-date modal): close it rather than leave it stuck.
      if (Object.keys(verdict.errors).length === 0) return ack();
      return ack({ response_action: 'errors', errors: verdict.errors });
    }
    const triggerId =
      'trigger_id' in body && typeof body.trigger_id === 'string'
        ? body.trigger_id
        : `${view.id}:${view.hash}`;
    try {
      await deps.dispatch({ ...verdict.value, id: `modal:${triggerId}` } as Job);
    } catch (error) {
      log.error('could not hand a modal submission to the worker', { error });
      const first = view.blocks.find((block) => block.type === 'input' && block.block_id);
      const field = first?.block_id ?? 'keywords';
      return ack({
        response_action: 'errors',
        errors: { [field]: 'The bot could not start this just now. Please try again in a minute.' },
      });
    }
    log.info('modal submission dispatched', { kind: verdict.value.kind });
    await ack();
  });
}

/**
 * The buttons that open a modal (App Home's Search / Research, a list card's Filter…): opened first
 * (the trigger id lasts 3 s), then acked; a value that does not parse opens nothing.
 */
export function registerModalOpener(
  app: App,
  deps: ListenerDeps,
  actionId: string,
  viewOf: (body: BlockAction<ButtonAction>) => ModalView | undefined,
): void {
  app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, client }) => {
    const view = viewOf(body);
    if (view) await openModal(client, body.trigger_id, view, deps.logger);
    else deps.logger.warn('a modal button carried a value that does not parse', { action: actionId });
    await ack();
  });
}
