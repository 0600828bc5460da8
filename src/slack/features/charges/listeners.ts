import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import { chargeActionKindOf } from '../../../domain/charging.ts';
import { handOverCharge } from '../../../domain/confirmation-publishing.ts';
import { type Actor, cancel, confirm } from '../../../domain/confirmations.ts';
import type { Confirmation } from '../../../domain/ports/index.ts';
import { ConfirmationValueSchema } from './buttons.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { approvalRefusalWords } from '../../kit/approval-words.ts';
import { storedConfirmationCard } from '../../kit/recorded-card.ts';
import { botNotice } from '../../views/messages.ts';
import { contextOf, parseValue } from '../../kit/interaction.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import { mentionUser } from '../../views/format.ts';

type ClickArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

const clickerOf = (body: BlockAction) => ({
  userId: body.user.id,
  teamId: body.team?.id ?? body.user.team_id ?? '',
});

/**
 * Who clicked: a member of the workspace, as Confirm and Cancel are for members only (`askers`, checked
 * by kit/permissions.ts before this listener runs); the confirmation's rules decide the rest.
 */
const actorOf = ({ body }: ClickArgs): Actor => ({ ...clickerOf(body), membership: 'member' });

/** A click's decision reads the confirmation, then the rules in its channel (wherever the click came from). */
const decisionDeps = (deps: ListenerDeps, actor: Actor, context: ClickArgs['context']) => ({
  confirmations: deps.confirmations,
  policyIn: (channelId: string) => deps.policyFor(actor.teamId, channelId, context.botToken),
});

/**
 * Where a click's answers go. On the card, through its response_url: the card is replaced in place and
 * notes reach only the clicker. From the App Home there is no response_url: the channel card is
 * updated with `chat.update`, and notes appear at the top of the clicker's republished Home.
 */
interface ClickSurface {
  tell(message: Mrkdwn): Promise<void>;
  /** Shows the confirmation's state on its card (a final one is then marked shown). */
  show(confirmation: Confirmation): Promise<void>;
  /** Where the charge job answers. */
  chargeContext(confirmation: Confirmation): JobContext;
  /** A decision with nothing left to run: the Home shows it (the card already does). */
  decided(message: Mrkdwn): Promise<void>;
}

const isFromHome = (body: BlockAction) => body.container.type === 'view';

function cardSurface({ body, respond }: ClickArgs, deps: ListenerDeps): ClickSurface {
  return {
    tell: async (message) => {
      await respond({ response_type: 'ephemeral', replace_original: false, ...botNotice(message) });
    },
    show: async (confirmation) => {
      await respond({ replace_original: true, ...storedConfirmationCard(confirmation) });
      if (confirmation.status !== 'running')
        await deps.confirmations.cardShown(confirmation.id, confirmation.status);
    },
    chargeContext: () => contextOf(body),
    decided: () => Promise.resolve(),
  };
}

function homeSurface({ body, client }: ClickArgs, deps: ListenerDeps): ClickSurface {
  const actor = clickerOf(body);
  let answers = 0;
  // Slow work stays out of the request: the Home is rebuilt (service balance included) by the worker.
  const republish = (notice: Mrkdwn) =>
    deps.dispatch({
      kind: 'home',
      id: `home:${body.trigger_id}:${++answers}`,
      notice,
      context: { teamId: actor.teamId, channelId: '', userId: actor.userId },
    });
  return {
    tell: republish,
    decided: republish,
    show: async (confirmation) => {
      if (confirmation.messageTs)
        await client.chat.update({
          channel: confirmation.channelId,
          ts: confirmation.messageTs,
          ...storedConfirmationCard(confirmation),
        });
      if (confirmation.status !== 'running')
        await deps.confirmations.cardShown(confirmation.id, confirmation.status);
    },
    chargeContext: (confirmation) => ({
      teamId: actor.teamId,
      channelId: confirmation.channelId,
      userId: actor.userId,
      ...(confirmation.messageTs ? { messageTs: confirmation.messageTs } : {}),
    }),
  };
}

/** Acks, picks the surface, and tells the clicker (one line, no stack) when handling fails. */
function clickHandler(deps: ListenerDeps, handle: (args: ClickArgs, surface: ClickSurface) => Promise<void>) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const surface = isFromHome(args.body) ? homeSurface(args, deps) : cardSurface(args, deps);
    try {
      await handle(args, surface);
    } catch (error) {
      deps.logger.error('a button could not be handled', { error });
      await surface
        .tell(mk`The bot could not handle that click just now. Please try again in a moment.`)
        .catch((tellError: unknown) => deps.logger.error('could not tell the user', { error: tellError }));
    }
  };
}

/**
 * Confirm and Cancel, on a confirmation card or on the App Home (the same action ids, the same rules).
 * Confirm claims the confirmation in one conditional write (exactly one click wins), shows
 * "Charging…" and hands the charge to the worker; every other click is told what happened. A card
 * replaced here is marked shown; if this process dies first, the reconciler shows it.
 */
export function registerConfirmationActions(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.confirmYes,
    clickHandler(deps, async (args, surface) => {
      const { body, action, context } = args;
      const value = ConfirmationValueSchema.safeParse(parseValue(action));
      if (!value.success) return surface.tell(mk`This button is out of date.`);
      const { confirmationId } = value.data;
      const actor = actorOf(args);
      const decision = await confirm(confirmationId, actor, decisionDeps(deps, actor, context));
      const log = deps.logger.child({
        team: body.team?.id,
        channel: body.channel?.id,
        user: body.user.id,
        confirmationId,
        fromHome: isFromHome(body),
      });
      switch (decision.kind) {
        case 'claimed': {
          log.info('confirmation claimed');
          // Buttons off at once; before the dispatch, so this can never overwrite the worker's result.
          await surface
            .show(decision.confirmation)
            .catch((error: unknown) => log.warn('could not show the charge starting', { error }));
          const closed = await handOverCharge(
            confirmationId,
            () =>
              deps.dispatch({
                kind: 'charge',
                id: `charge:${confirmationId}`,
                confirmationId,
                actionKind: chargeActionKindOf(decision.confirmation.action),
                context: surface.chargeContext(decision.confirmation),
              }),
            { confirmations: deps.confirmations, logger: log },
          );
          if (closed) {
            await surface.show(closed);
            await surface.decided(mk`The bot could not start the charge. Nothing was charged.`);
          }
          return;
        }
        case 'not-allowed':
          return surface.tell(approvalRefusalWords(decision.refusal));
        case 'already-handled':
          return surface.tell(alreadyHandled(decision.status, decision.confirmedBy));
        case 'expired':
          await surface.show(decision.confirmation);
          return surface.tell(mk`This confirmation expired; nothing was charged. Run the command again.`);
        case 'not-found':
          return surface.tell(mk`This confirmation no longer exists; nothing was charged.`);
      }
    }),
  );

  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.confirmNo,
    clickHandler(deps, async (args, surface) => {
      const { action, context } = args;
      const value = ConfirmationValueSchema.safeParse(parseValue(action));
      if (!value.success) return surface.tell(mk`This button is out of date.`);
      const actor = actorOf(args);
      const result = await cancel(value.data.confirmationId, actor, decisionDeps(deps, actor, context));
      switch (result.kind) {
        case 'cancelled':
          await surface.show(result.confirmation);
          return surface.decided(mk`Cancelled; nothing was charged.`);
        case 'not-allowed':
          return surface.tell(approvalRefusalWords(result.refusal));
        case 'already-handled':
          return surface.tell(alreadyHandled(result.status));
        case 'not-found':
          return surface.tell(mk`This confirmation no longer exists; nothing was charged.`);
      }
    }),
  );
}

function alreadyHandled(status: string, confirmedBy?: string): Mrkdwn {
  const by = confirmedBy ? mk` by ${mentionUser(confirmedBy)}` : '';
  switch (status) {
    case 'running':
      return mk`This is already being handled${by}; it runs once.`;
    case 'succeeded':
      return mk`This was already confirmed${by} and has run.`;
    case 'failed':
      return mk`This was already confirmed${by}; it failed and was not retried.`;
    case 'cancelled':
      return mk`This was cancelled; nothing was charged.`;
    case 'expired':
      return mk`This confirmation expired; nothing was charged. Run the command again.`;
    default:
      return mk`This confirmation was already handled.`;
  }
}
