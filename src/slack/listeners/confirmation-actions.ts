import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import { describeStoredAction as describe } from '../../domain/charging.ts';
import { cancel, confirm } from '../../domain/confirmations.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import { confirmationCard } from '../views/confirmation.ts';
import { botNotice } from '../views/messages.ts';
import { answeringFailures } from './answer-failures.ts';
import { contextOf, parseValue } from './button-actions.ts';
import type { ListenerDeps } from './index.ts';

const ConfirmationValue = z.object({ confirmationId: z.string().min(1).max(200) });

const tell = (respond: RespondFn, message: string) =>
  respond({ response_type: 'ephemeral', replace_original: false, ...botNotice(message) });

/**
 * Confirm and Cancel on a confirmation card. Confirm claims the confirmation in one conditional write
 * (exactly one click wins) and hands the charge to the worker; every other click is told what happened.
 */
export function registerConfirmationActions(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.confirmYes,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = ConfirmationValue.safeParse(parseValue(action));
      if (!value.success) return void (await tell(respond, 'This button is out of date.'));
      const { confirmationId } = value.data;
      const decision = await confirm(confirmationId, body.user.id, deps);
      const log = deps.logger.child({
        team: body.team?.id,
        channel: body.channel?.id,
        user: body.user.id,
        confirmationId,
      });
      switch (decision.kind) {
        case 'claimed': {
          log.info('confirmation claimed');
          try {
            await deps.dispatch({ kind: 'charge', confirmationId, context: contextOf(body) });
          } catch (error) {
            log.error('could not hand the charge to the worker', { error });
            // Closed only if no worker started the charge; otherwise the worker owns the card.
            if (!(await deps.confirmations.abandon(confirmationId, 'dispatch-failed'))) return;
            const { confirmation } = decision;
            await respond({
              replace_original: true,
              ...confirmationCard({
                state: 'failed',
                description: describe(confirmation.action),
                price: confirmation.price,
                requestedBy: confirmation.requestedBy,
                confirmedBy: body.user.id,
                creditsSpent: 0,
                errorMessage:
                  'The bot could not start the charge. Nothing was charged; please run the command again.',
              }),
            });
          }
          return;
        }
        case 'not-allowed':
          return void (await tell(
            respond,
            `Only <@${decision.requestedBy}> or an approver can confirm this.`,
          ));
        case 'already-handled':
          return void (await tell(respond, alreadyHandled(decision.status, decision.confirmedBy)));
        case 'expired': {
          const { confirmation } = decision;
          await respond({
            replace_original: true,
            ...confirmationCard({
              state: 'expired',
              description: describe(confirmation.action),
              price: confirmation.price,
              requestedBy: confirmation.requestedBy,
            }),
          });
          return void (await tell(
            respond,
            'This confirmation expired; nothing was charged. Run the command again.',
          ));
        }
        case 'not-found':
          return void (await tell(respond, 'This confirmation no longer exists; nothing was charged.'));
      }
    }),
  );

  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.confirmNo,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = ConfirmationValue.safeParse(parseValue(action));
      if (!value.success) return void (await tell(respond, 'This button is out of date.'));
      const result = await cancel(value.data.confirmationId, body.user.id, deps);
      switch (result.kind) {
        case 'cancelled':
          await respond({
            replace_original: true,
            ...confirmationCard({
              state: 'cancelled',
              description: describe(result.confirmation.action),
              price: result.confirmation.price,
              requestedBy: result.confirmation.requestedBy,
              cancelledBy: body.user.id,
            }),
          });
          return;
        case 'not-allowed':
          return void (await tell(respond, `Only <@${result.requestedBy}> or an approver can cancel this.`));
        case 'already-handled':
          return void (await tell(respond, alreadyHandled(result.status)));
        case 'not-found':
          return void (await tell(respond, 'This confirmation no longer exists; nothing was charged.'));
      }
    }),
  );
}

function alreadyHandled(status: string, confirmedBy?: string): string {
  const by = confirmedBy ? ` by <@${confirmedBy}>` : '';
  switch (status) {
    case 'running':
      return `This is already being handled${by}; it runs once.`;
    case 'succeeded':
      return `This was already confirmed${by} and has run.`;
    case 'failed':
      return `This was already confirmed${by}; it failed and was not retried.`;
    case 'cancelled':
      return 'This was cancelled; nothing was charged.';
    default:
      return 'This confirmation was already handled.';
  }
}
