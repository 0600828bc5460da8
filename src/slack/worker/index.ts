import type { ChargeAction } from '../../domain/charging.ts';
import {
  type ConfirmationDeps,
  needsApprover,
  requestConfirmation,
  runCharge,
  type SpendPolicy,
} from '../../domain/confirmations.ts';
import type { EisClient } from '../../eis/index.ts';
import { EisBadInputError, EisError, EisNotFoundError, referenceOf } from '../../eis/index.ts';
import { AppError, ValidationError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/index.ts';
import { type Command, parseCommand } from '../command-parser.ts';
import { confirmationCardShower } from '../confirmation-cards.ts';
import type { ShareValue } from '../views/action-ids.ts';
import { sharedBy, withShareButton } from '../views/share.ts';
import type { SlackMessage } from '../views/types.ts';
import { type Job, type JobContext, JobSchema } from '../jobs.ts';
import { type ConfirmationCardInput, confirmationCard } from '../views/confirmation.ts';
import { eventCard } from '../views/event-card.ts';
import { fitCard } from '../views/fit-card.ts';
import { companyExhibitorList, eventList } from '../views/lists.ts';
import { creditsCard, errorMessage, notFoundText, spendCard } from '../views/messages.ts';
import { isDigestCommand, runDigestCommand } from './digest-commands.ts';
import { isListName, type ListName, renderList } from './lists.ts';
import type { SlackOut } from './slack-out.ts';

export interface WorkerDeps {
  eis: EisClient;
  store: Store;
  slack: SlackOut;
  /** For the requester's time zone (`users.info`) when a digest is set up without one. */
  userTimeZone: (userId: string) => Promise<string | undefined>;
  policy: SpendPolicy;
  /** The service account of the key (the daily cap is kept per account). */
  accountId: string;
  logger: Logger;
  now: () => Date;
}

const isUserError = (error: unknown): error is EisError | ValidationError =>
  error instanceof EisNotFoundError || error instanceof EisBadInputError || error instanceof ValidationError;

/** The list a command shows, and the query its Previous / Next buttons carry. */
function listOf(command: Command): { list: ListName; query: Record<string, unknown> } | undefined {
  switch (command.name) {
    case 'search':
      return { list: 'events', query: { ...command.filters } };
    case 'exhibitors':
      return { list: 'exhibitors', query: { eventId: command.eventId, keyword: command.keyword } };
    case 'people':
      return { list: 'people', query: { eventId: command.eventId, query: command.query } };
    case 'recommend':
      return { list: 'recommend', query: { eventId: command.eventId } };
    case 'similar':
      return {
        list: 'similar',
        query: { companyUrl: command.companyUrl, targetAudience: command.targetAudience },
      };
    case 'person-events':
      return { list: 'person-events', query: { personnelId: command.personnelId } };
    case 'files':
      return { list: 'files', query: {} };
    default:
      return undefined;
  }
}

/** The credit-spending action a command asks for, if it is one. */
function chargeActionOf(command: Command): ChargeAction | undefined {
  switch (command.name) {
    case 'unlock':
      return { kind: 'event-unlock', eventId: command.eventId };
    case 'visitors':
      return { kind: 'visitors-unlock', eventId: command.eventId };
    case 'full-access':
      return { kind: 'full-access-unlock', eventId: command.eventId };
    case 'emails':
      return { kind: 'email-unlock', personnelIds: command.personnelIds };
    case 'phones':
      return { kind: 'phone-unlock', personnelIds: command.personnelIds };
    case 'who':
      return { kind: 'people-by-name', fullName: command.fullName };
    case 'company':
      return { kind: 'exhibitor-events', companyName: command.companyName };
    case 'exhibitor':
      return { kind: 'exhibitor-search', companyName: command.companyName };
    default:
      return undefined;
  }
}

const dropUndefined = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));

/** Runs the slow half of every Slack interaction, after the HTTP request was answered. */
export function createWorker(deps: WorkerDeps) {
  const { eis, store, slack } = deps;
  const chargeDeps: ConfirmationDeps = {
    eis,
    confirmations: store.confirmations,
    charges: store.charges,
    policy: deps.policy,
    accountId: deps.accountId,
    logger: deps.logger,
    now: deps.now,
  };
  const showCard = confirmationCardShower(slack.update, store.confirmations, deps.logger);

  /**
   * Where a free answer goes: privately to the one who asked (replacing the "working…" line), with
   * a Share button; for everyone when shared (saying by whom); in the thread of the public card whose
   * button asked for it.
   */
  async function answer(context: JobContext, message: SlackMessage, share?: ShareValue): Promise<void> {
    if (context.sharedBy) {
      await slack.post(context, sharedBy(message, context.sharedBy));
      await slack.deleteOriginal(context);
      return;
    }
    if (context.threadTs) {
      await slack.post(context, message, context.threadTs);
      return;
    }
    const shown = share ? withShareButton(message, share) : message;
    await slack.ephemeral(context, shown, { replaceOriginal: context.placeholder ?? false });
  }

  async function runCommand(command: Command, context: JobContext, text: string): Promise<void> {
    const list = listOf(command);
    if (list) {
      const message = await renderList(list.list, dropUndefined(list.query), 1, eis);
      // Files belong to the key's owner: shown only to the one who asked, never shared.
      return answer(context, message, list.list === 'files' ? undefined : { text });
    }
    const action = chargeActionOf(command);
    if (action) {
      // A decision for the channel: the card is public, and the "working…" line goes.
      await askToConfirm(action, context);
      if (context.placeholder) await slack.deleteOriginal(context);
      return;
    }
    if (isDigestCommand(command)) {
      await runDigestCommand(command, context, {
        subscriptions: store.digestSubscriptions,
        slack,
        userTimeZone: deps.userTimeZone,
        eis,
        ledger: store.ledger,
        unlockTasks: store.unlockTasks,
        fitScores: store.fitScores,
        logger: deps.logger,
        now: deps.now,
      });
      if (context.placeholder) await slack.deleteOriginal(context);
      return;
    }
    switch (command.name) {
      case 'fit': {
        const [fit, detail] = await Promise.all([
          eis.events.fitScore(command.eventId),
          eis.events.detail(command.eventId).catch(() => null),
        ]);
        const name = detail?.name ?? undefined;
        const card = fitCard(fit, { hasVisitors: detail?.hasVisitors ?? null, ...(name ? { name } : {}) });
        return answer(context, card, { text });
      }
      case 'show':
        return answer(context, eventCard(await eis.events.detail(command.eventId)), { text });
      case 'credits':
        return answer(context, creditsCard(await eis.credits.balance()));
      case 'spend': {
        const day = deps.now().toISOString().slice(0, 10);
        const entries = await store.ledger.listForDay(context.teamId, day);
        return answer(context, spendCard(entries, day, deps.policy.dailyCap));
      }
      default:
        // Help is answered by the listener; every other word is handled above.
        return answer(context, errorMessage('Try `/events help` for the list of commands.'));
    }
  }

  async function askToConfirm(action: ChargeAction, context: JobContext): Promise<void> {
    const { quote, confirmation } = await requestConfirmation(action, context, chargeDeps);
    if (!confirmation)
      return slack.ephemeral(context, errorMessage(quote.refusal ?? 'There is nothing to confirm.'));
    const quoteCard = { description: quote.description, price: quote.price, requestedBy: context.userId };
    const card: ConfirmationCardInput = {
      ...quoteCard,
      state: 'pending',
      confirmationId: confirmation.id,
      balance: quote.balance,
      expiresAt: confirmation.deadline,
      ...('personnelIds' in quote.action ? { personnelIds: quote.action.personnelIds } : {}),
      ...(needsApprover(quote.price, deps.policy)
        ? { approvers: deps.policy.approvers.filter((id) => id !== context.userId) }
        : {}),
    };
    // Posted without buttons, armed once its ts is stored: Slack may store a post whose answer never
    // arrives, and such a card must not be one anybody can click.
    const ts = await slack.post(context, confirmationCard({ ...card, buttons: false }));
    if (ts) {
      try {
        await store.confirmations.attachMessage(confirmation.id, ts);
      } catch (error) {
        await slack
          .update(
            context.channelId,
            ts,
            confirmationCard({
              ...quoteCard,
              state: 'failed',
              creditsSpent: 0,
              errorMessage:
                'This confirmation could not be set up. Nothing was charged; please run the command again.',
            }),
          )
          .catch((updateError: unknown) =>
            deps.logger.error('could not close a card', { error: updateError }),
          );
        throw error;
      }
      await slack.update(context.channelId, ts, confirmationCard(card));
      return;
    }
    // The bot cannot post here (the user was told how to invite it): nothing can be confirmed.
    await store.confirmations.cancel(confirmation.id, { by: 'eventbot' });
  }

  async function runChargeJob(confirmationId: string, context: JobContext): Promise<void> {
    // The click carries the card's ts too, for a confirmation whose ts could not be saved.
    const result = await runCharge(confirmationId, chargeDeps, context.messageTs);
    // A duplicate belongs to another run; an unsettled charge to the reconciler.
    if (result.kind !== 'settled') return;
    const { confirmation, results } = result;
    // Once charged, a Slack failure must not turn into "try again": the reconciler shows the card.
    await showCard(confirmation, context.messageTs).catch((error: unknown) =>
      deps.logger.error('could not update the confirmation card', { confirmationId, error }),
    );
    // Searches are charged per request: their results go in the thread, without paging.
    const ts = confirmation.messageTs ?? context.messageTs;
    if (results && results.page.items.length > 0 && ts) {
      const message =
        results.kind === 'events'
          ? eventList({ page: results.page, query: {}, pageable: false })
          : companyExhibitorList({ page: results.page, query: {}, pageable: false });
      await slack
        .post(context, message, ts)
        .catch((error: unknown) =>
          deps.logger.error('could not post paid search results', { confirmationId, error }),
        );
    }
  }

  async function run(job: Job): Promise<void> {
    switch (job.kind) {
      case 'command': {
        const parsed = parseCommand(job.text);
        if (!parsed.ok) return answer(job.context, errorMessage(parsed.problem));
        return runCommand(parsed.command, job.context, job.text);
      }
      case 'share': {
        const { share } = job;
        if ('list' in share) {
          if (!isListName(share.list))
            return slack.ephemeral(job.context, errorMessage('This list is no longer available.'));
          return answer(job.context, await renderList(share.list, share.query, share.page, eis));
        }
        const parsed = parseCommand(share.text);
        if (!parsed.ok) return slack.ephemeral(job.context, errorMessage(parsed.problem));
        return runCommand(parsed.command, job.context, share.text);
      }
      case 'page': {
        if (!isListName(job.list))
          return slack.ephemeral(job.context, errorMessage('This list is no longer available.'));
        const message = await renderList(job.list, job.query, job.page, eis);
        if (job.fresh) return slack.ephemeral(job.context, message);
        if (job.context.responseUrl) return slack.ephemeral(job.context, message, { replaceOriginal: true });
        if (job.context.messageTs) return slack.update(job.context.channelId, job.context.messageTs, message);
        return;
      }
      case 'charge':
        return runChargeJob(job.confirmationId, job.context);
    }
  }

  return {
    /**
     * The worker's boundary: parses the payload, runs it, and turns any error into one log line and a
     * message in the user's words. It never throws: a failed job is told to its user, not retried.
     */
    async handle(payload: unknown): Promise<void> {
      const parsed = JobSchema.safeParse(payload);
      if (!parsed.success) {
        deps.logger.error('worker got a malformed job', { issues: parsed.error.issues.length });
        return;
      }
      const job = parsed.data;
      const log = deps.logger.child({
        team: job.context.teamId,
        channel: job.context.channelId,
        user: job.context.userId,
        job: job.kind,
      });
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
        const userMessage =
          error instanceof EisNotFoundError && job.kind === 'command'
            ? notFoundText(job.text)
            : error instanceof EisError || error instanceof AppError
              ? error.userMessage
              : 'Something went wrong on our side. Please try again.';
        // The service's reference goes only to the person who asked (this answer is ephemeral).
        const reference = referenceOf(error);
        const message = reference ? `${userMessage} ${reference}` : userMessage;
        await slack
          .ephemeral(job.context, errorMessage(message), {
            replaceOriginal: job.context.placeholder ?? false,
          })
          .catch((notifyError: unknown) =>
            log.error('could not tell the user about a failed job', { error: notifyError }),
          );
      }
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
