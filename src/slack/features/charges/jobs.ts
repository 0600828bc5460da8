import { type ChargeAction, type ChargeActionKind, ChargeActionSchema } from '../../../domain/charging.ts';
import { type ConfirmationCardPort, publishConfirmation } from '../../../domain/confirmation-publishing.ts';
import { whoMayConfirm } from '../../../domain/approval.ts';
import { type ConfirmationDeps, requestConfirmation, runCharge } from '../../../domain/confirmations.ts';
import { tellApprovers } from './approver-notice.ts';
import { confirmationCardShower } from './card-updates.ts';
import type { Job, JobContext } from '../../kit/jobs.ts';

type ChargeJob = Extract<Job, { kind: 'charge' }>;
import { withPublicShowIds } from '../../kit/show-ids.ts';
import { describeAction, quoteRefusalWords } from '../../kit/charge-words.ts';
import { type ConfirmationCardInput, confirmationCard } from '../../kit/confirmation-card.ts';
import { companyExhibitorList, eventList, showAllPeopleButton } from '../lists/index.ts';
import { errorMessage } from '../../views/messages.ts';
import { quotedPrice } from '../../kit/money-words.ts';
import { isSearchAction, paidSearchResults } from './paid-search-views.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import type { Confirmation } from '../../../domain/ports/index.ts';

type PendingCard = Extract<ConfirmationCardInput, { state: 'pending' }>;

/** A new confirmation's card in Slack, for the domain's publishing rule (see `publishConfirmation`). */
function cardInSlack(
  card: PendingCard,
  context: JobContext,
  slack: WorkerDeps['slack'],
): ConfirmationCardPort {
  return {
    show: () => slack.post(context, confirmationCard({ ...card, buttons: false })),
    arm: (ts) => slack.update(context.channelId, ts, confirmationCard(card)),
    close: (ts, message) =>
      slack.update(
        context.channelId,
        ts,
        confirmationCard({
          description: card.description,
          price: card.price,
          requestedBy: card.requestedBy,
          state: 'failed',
          creditsSpent: 0,
          errorMessage: message,
        }),
      ),
  };
}

export type AskToConfirm = (action: ChargeAction, context: JobContext) => Promise<void>;

/**
 * What other rooms do with a charge, handed in by the composition (this room builds no other's jobs):
 * - `chargeShownBy`: by the charge's action kind, the room that charges the shared way but shows the
 *   outcome on its own card (the LinkedIn activity card), and so runs it itself.
 * - `afterCharge`: once a charge settled and its card shows the outcome, in the order given (the
 *   Home's notice, the plan's budget warning). A step that throws is logged: the charge is done.
 */
export interface ChargeHooks {
  chargeShownBy: Partial<
    Record<ChargeActionKind, (confirmationId: string, context: JobContext) => Promise<void>>
  >;
  afterCharge: readonly ((confirmation: Confirmation, context: JobContext) => Promise<void>)[];
}

/** Credit-spending work: asking for a confirmation, and running the charge once it is confirmed. */
export function chargeJobs(deps: WorkerDeps, hooks: ChargeHooks) {
  const { slack, store, logger } = deps;
  const chargeDeps: ConfirmationDeps = {
    eis: deps.eis,
    confirmations: store.confirmations,
    charges: store.charges,
    policyIn: deps.policyIn,
    accountId: deps.accountId,
    logger,
    now: deps.now,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  };
  const showCard = confirmationCardShower(slack.update, store.confirmations, logger);

  const askToConfirm: AskToConfirm = async (action, context) => {
    const { quote, confirmation } = await requestConfirmation(action, context, {
      ...chargeDeps,
      showNames: deps.showNames,
      // One id per show: converted while the card's reads run (its detail read is the naming's).
      withPublicIds: (given) => withPublicShowIds(deps.showIds, given),
    });
    if (!confirmation)
      return slack.ephemeral(
        context,
        errorMessage(quote.refusal ? quoteRefusalWords(quote.refusal) : 'There is nothing to confirm.'),
      );
    const card: PendingCard = {
      description: describeAction(quote.action),
      price: quotedPrice(quote.action, quote.price),
      requestedBy: context.userId,
      state: 'pending',
      confirmationId: confirmation.id,
      balance: quote.balance,
      expiresAt: confirmation.deadline,
      ...('personnelIds' in quote.action ? { showAll: showAllPeopleButton(quote.action.personnelIds) } : {}),
      ...(isSearchAction(quote.action) ? { searchPage: quote.action.page ?? 1 } : {}),
      mayConfirm: whoMayConfirm(quote.price, context.userId, await deps.policyIn(context.channelId)),
    };
    await publishConfirmation(confirmation.id, cardInSlack(card, context, slack), {
      confirmations: store.confirmations,
      logger,
    });
    const ts = (await store.confirmations.get(confirmation.id))?.messageTs;
    if (ts) await tellApprovers({ ...card, channelId: context.channelId, ts }, slack, logger);
  };

  async function runChargeJob({ confirmationId, actionKind, context }: ChargeJob) {
    const shownElsewhere = actionKind && hooks.chargeShownBy[actionKind];
    if (shownElsewhere) return shownElsewhere(confirmationId, context);
    // The click carries the card's ts too, for a confirmation whose ts could not be saved.
    const result = await runCharge(confirmationId, chargeDeps, context.messageTs);
    // A duplicate belongs to another run; an unsettled charge to the reconciler.
    if (result.kind !== 'settled') return;
    const { confirmation, results, taskId } = result;
    // Once charged, a Slack failure must not turn into "try again": the reconciler shows the card.
    await showCard(confirmation, context.messageTs).catch((error: unknown) =>
      logger.error('could not update the confirmation card', { confirmationId, error }),
    );
    for (const step of hooks.afterCharge)
      await step(confirmation, context).catch((error: unknown) =>
        logger.error('a step after a charge failed', { confirmationId, error }),
      );
    // Searches are charged per request: their results go in the thread, with Previous / Next that ask
    // for the other pages through a confirmation each.
    const ts = confirmation.messageTs ?? context.messageTs;
    if (results && results.page.items.length > 0 && ts) {
      const action = ChargeActionSchema.safeParse(confirmation.action);
      const message =
        action.success && isSearchAction(action.data)
          ? paidSearchResults(action.data, results, confirmation.price.credits)
          : results.kind === 'events'
            ? eventList({ page: results.page, query: {}, pageable: false })
            : companyExhibitorList({ page: results.page, query: {}, pageable: false });
      await slack
        .post(context, message, ts)
        .catch((error: unknown) =>
          logger.error('could not post paid search results', { confirmationId, error }),
        );
    }
    // Most unlock tasks finish in seconds: their results need not wait for the next scheduled run.
    if (taskId) await deps.pollSubmittedTask(taskId);
  }

  return { askToConfirm, runChargeJob };
}
