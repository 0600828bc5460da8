import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import { handOverCharge } from '../../domain/confirmation-card.ts';
import { type Actor, cancel, confirm } from '../../domain/confirmations.ts';
import type { Confirmation } from '../../store/index.ts';
import { ConfirmationValueSchema } from '../button-values.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import { storedConfirmationCard } from '../views/confirmation.ts';
import { botNotice } from '../views/messages.ts';
import { answeringFailures } from './answer-failures.ts';
import { contextOf, parseValue } from './button-actions.ts';
import type { ListenerDeps } from './deps.ts';

const tell = (respond: RespondFn, message: string) =>
  respond({ response_type: 'ephemeral', replace_original: false, ...botNotice(message) });

const actorOf = (body: BlockAction): Actor => ({
  userId: body.user.id,
  teamId: body.team?.id ?? body.user.team_id ?? '',
});

/**
 * Confirm and Cancel on a confirmation card. Confirm claims the confirmation in one conditional write
 * (exactly one click wins), shows "Charging…" and hands the charge to the worker; every other click is
 * told what happened. A card replaced here is marked shown; if this process dies first, the
 * reconciler shows it.
 */
export function registerConfirmationActions(app: App, deps: ListenerDeps): void {
  const show = async (respond: RespondFn, confirmation: Confirmation) => {
    await respond({ replace_original: true, ...storedConfirmationCard(confirmation) });
    if (confirmation.status !== 'running')
      await deps.confirmations.cardShown(confirmation.id, confirmation.status);
  };

  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.confirmYes,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = ConfirmationValueSchema.safeParse(parseValue(action));
      if (!value.success) return void (await tell(respond, 'This button is out of date.'));
      const { confirmationId } = value.data;
      const decision = await confirm(confirmationId, actorOf(body), deps);
      const log = deps.logger.child({
        team: body.team?.id,
        channel: body.channel?.id,
        user: body.user.id,
        confirmationId,
      });
      switch (decision.kind) {
        case 'claimed': {
          log.info('confirmation claimed');
          // Buttons off at once; before the dispatch, so this can never overwrite the worker's result.
          await show(respond, decision.confirmation).catch((error: unknown) =>
            log.warn('could not show the charge starting', { error }),
          );
          const closed = await handOverCharge(
            confirmationId,
            () =>
              deps.dispatch({
                kind: 'charge',
                id: `charge:${confirmationId}`,
                confirmationId,
                context: contextOf(body),
              }),
            { confirmations: deps.confirmations, logger: log },
          );
          if (closed) await show(respond, closed);
          return;
        }
        case 'not-allowed':
          return void (await tell(respond, decision.message));
        case 'already-handled':
          return void (await tell(respond, alreadyHandled(decision.status, decision.confirmedBy)));
        case 'expired':
          await show(respond, decision.confirmation);
          return void (await tell(
            respond,
            'This confirmation expired; nothing was charged. Run the command again.',
          ));
        case 'not-found':
          return void (await tell(respond, 'This confirmation no longer exists; nothing was charged.'));
      }
    }),
  );

  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.confirmNo,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = ConfirmationValueSchema.safeParse(parseValue(action));
      if (!value.success) return void (await tell(respond, 'This button is out of date.'));
      const result = await cancel(value.data.confirmationId, actorOf(body), deps);
      switch (result.kind) {
        case 'cancelled':
          return show(respond, result.confirmation);
        case 'not-allowed':
          return void (await tell(respond, result.message));
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
    case 'expired':
      return 'This confirmation expired; nothing was charged. Run the command again.';
    default:
      return 'This confirmation was already handled.';
  }
}
