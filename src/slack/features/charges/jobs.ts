import { type ChargeAction, ChargeActionSchema } from '../../../domain/charging.ts';
import { type ConfirmationCardPort, publishConfirmation } from '../../../domain/confirmation-card.ts';
import { approversToName } from '../../../domain/approval.ts';
import { type ConfirmationDeps, requestConfirmation, runCharge } from '../../../domain/confirmations.ts';
import { confirmationCardShower } from './confirmation-cards.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { describeAction, quoteRefusalWords } from './charge-words.ts';
import { type ConfirmationCardInput, confirmationCard } from './views.ts';
import { eventList } from '../lists/event-views.ts';
import { companyExhibitorList } from '../lists/exhibitor-views.ts';
import { errorMessage } from '../../views/messages.ts';
import { quotedPrice } from './money-words.ts';
import { isSearchAction, paidSearchResults } from './paid-search-views.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import { homeJobs } from '../home/jobs.ts';
import { followUpJobs } from '../follow-up/jobs.ts';
import { planBudgetWatch } from '../plan/jobs.ts';

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

/** Credit-spending work: asking for a confirmation, and running the charge once it is confirmed. */
export function chargeJobs(deps: WorkerDeps) {
  const { slack, store, policy, logger } = deps;
  const chargeDeps: ConfirmationDeps = {
    eis: deps.eis,
    confirmations: store.confirmations,
    charges: store.charges,
    policy,
    accountId: deps.accountId,
    logger,
    now: deps.now,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  };
  const showCard = confirmationCardShower(slack.update, store.confirmations, logger);
  const home = homeJobs(deps);
  const followUps = followUpJobs(deps);
  const planBudget = planBudgetWatch({ ...store, slack, logger, now: deps.now });

  const askToConfirm: AskToConfirm = async (action, context) => {
    const { quote, confirmation } = await requestConfirmation(action, context, chargeDeps);
    if (!confirmation)
      return slack.ephemeral(
        context,
        errorMessage(quote.refusal ? quoteRefusalWords(quote.refusal) : 'There is nothing to confirm.'),
      );
    const approvers = approversToName(quote.price, context.userId, policy);
    const card: PendingCard = {
      description: describeAction(quote.action),
      price: quotedPrice(quote.action, quote.price),
      requestedBy: context.userId,
      state: 'pending',
      confirmationId: confirmation.id,
      balance: quote.balance,
      expiresAt: confirmation.deadline,
      ...('personnelIds' in quote.action ? { personnelIds: quote.action.personnelIds } : {}),
      ...(isSearchAction(quote.action) ? { searchPage: quote.action.page ?? 1 } : {}),
      ...(approvers ? { approvers } : {}),
    };
    await publishConfirmation(confirmation.id, cardInSlack(card, context, slack), {
      confirmations: store.confirmations,
      logger,
    });
  };

  async function runChargeJob({ confirmationId, context }: { confirmationId: string; context: JobContext }) {
    // LinkedIn activity is charged the shared way, but its card is the follow-up's own (in the thread).
    if (await followUps.linkedinChargeJob(confirmationId, context)) return;
    // The click carries the card's ts too, for a confirmation whose ts could not be saved.
    const result = await runCharge(confirmationId, chargeDeps, context.messageTs);
    // A duplicate belongs to another run; an unsettled charge to the reconciler.
    if (result.kind !== 'settled') return;
    const { confirmation, results, taskId } = result;
    // Once charged, a Slack failure must not turn into "try again": the reconciler shows the card.
    await showCard(confirmation, context.messageTs).catch((error: unknown) =>
      logger.error('could not update the confirmation card', { confirmationId, error }),
    );
    // The Home of who asked and who confirmed shows the outcome (published whether or not they ever
    // opened it: Slack keeps it for their next visit). Never throws.
    await home.publishAfterCharge(confirmation);
    // The channel hears once when its plan's spend reaches the warning share of the quarter's budget. Never throws.
    await planBudget({ ...context, teamId: confirmation.teamId, channelId: confirmation.channelId });
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
