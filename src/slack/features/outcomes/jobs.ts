import { randomUUID } from 'node:crypto';
import {
  currencyProblem,
  deletion,
  mayDeleteOutcome,
  newOutcome,
  OUTCOME_LIMITS,
  startsTooFarAhead,
  watchedCompanyOf,
} from '../../../domain/outcomes.ts';
import type { OutcomeEntry } from '../../../domain/ports/records.ts';
import { EisNotFoundError } from '../../../eis/errors.ts';
import { utcDate } from '../../../time/local-time.ts';
import type { Answer } from '../../kit/answer.ts';
import type { JobContext } from '../../kit/jobs.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import { slackErrorCode } from '../../slack-errors.ts';
import { botNotice, errorMessage } from '../../views/messages.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';
import { mentionUser } from '../../views/format.ts';
import type { OutcomeCommand } from './outcome-reading.ts';
import { outcomeCard, outcomeRefusal } from './views.ts';

/** `/events outcome …` in the worker: an entry checked, stored and posted; or one deleted, its card updated. */

export type OutcomeDeps = Pick<
  WorkerDeps,
  'eis' | 'slack' | 'logger' | 'now' | 'workspaceRoles' | 'policyIn'
> & {
  store: Pick<WorkerDeps['store'], 'outcomes' | 'plans' | 'watchLists'>;
};

type LogCommand = Extract<OutcomeCommand, { name: 'outcome' }>;

/** The show as the service knows it now (a free read), under its public id; null when it knows none. */
async function showOf(deps: OutcomeDeps, eventId: string) {
  try {
    const detail = await deps.eis.events.detail(eventId);
    return {
      eventId: detail.eventId,
      name: detail.name ?? null,
      dateStart: detail.dateStart ?? null,
      dateEnd: detail.dateEnd ?? null,
    };
  } catch (error) {
    if (error instanceof EisNotFoundError) return null;
    throw error;
  }
}

const newId = () => randomUUID().replace(/-/g, '').slice(0, 8);

/** The entry to store, or what is wrong with it (nothing stored). */
async function entryOf(
  deps: OutcomeDeps,
  context: JobContext,
  command: LogCommand,
): Promise<OutcomeEntry | { refusal: string }> {
  const { teamId, channelId } = context;
  const [show, plan, watched] = await Promise.all([
    showOf(deps, command.eventId),
    deps.store.plans.get(teamId, channelId),
    deps.store.watchLists.allAccounts(teamId, channelId).catch(() => []),
  ]);
  if (!show)
    return {
      refusal: `The service knows no show with the id ${command.eventId}. Find ids with /events search.`,
    };
  if (startsTooFarAhead(show, utcDate(deps.now())))
    return {
      refusal: `${show.name ?? `Event ${show.eventId}`} starts ${show.dateStart ?? ''}, more than ${OUTCOME_LIMITS.aheadDays} days ahead: it has brought nothing yet.`,
    };
  const planCurrency = plan?.currency?.code;
  const problem = currencyProblem(command.amount?.currency, planCurrency);
  if (problem === 'no-plan-currency')
    return {
      refusal: `This channel's plan has no currency, so ${command.amount?.currency ?? ''} cannot be checked. Set it with /events plan currency ${command.amount?.currency ?? 'EUR'}, or give the amount alone.`,
    };
  if (problem === 'other-currency')
    return {
      refusal: `The amount is in ${command.amount?.currency ?? ''}, but this channel's plan is in ${planCurrency ?? ''}: give it in ${planCurrency ?? ''}.`,
    };
  const company = watchedCompanyOf(command.account, watched);
  return newOutcome({
    id: newId(),
    teamId,
    channelId,
    show,
    kind: command.kind,
    ...(command.grade ? { grade: command.grade } : {}),
    ...(command.amount ? { hundredths: command.amount.hundredths } : {}),
    ...(planCurrency ? { currency: planCurrency } : {}),
    account: command.account,
    ...(company ? { company } : {}),
    ...(command.note ? { note: command.note } : {}),
    loggedBy: context.userId,
    at: deps.now(),
  });
}

async function logOutcome(deps: OutcomeDeps, context: JobContext, command: LogCommand, answer: Answer) {
  const entry = await entryOf(deps, context, command);
  if ('refusal' in entry) return answer(context, outcomeRefusal(entry.refusal));
  // A new id for the rare one already taken.
  const stored = (await deps.store.outcomes.add(entry)) ? entry : { ...entry, id: newId() };
  if (stored !== entry && !(await deps.store.outcomes.add(stored)))
    return answer(
      context,
      errorMessage('The entry could not be stored; please try again. Nothing was logged.'),
    );
  const cardTs = await deps.slack.post(context, outcomeCard(stored));
  if (!cardTs) return answer(context, outcomeCard(stored)); // the bot is not in the channel: the logger sees it
  await deps.store.outcomes.setCard(stored.teamId, stored.id, cardTs);
  // The card is the answer, for everyone: the "working…" line goes.
  if (context.placeholder) await deps.slack.deleteOriginal(context);
}

/** Whether the user is a workspace admin (the one check's standing: a guest or outsider never is). */
async function isAdmin(deps: OutcomeDeps, context: JobContext): Promise<boolean> {
  const policy = await deps.policyIn(context.channelId || undefined);
  const standing = await deps.workspaceRoles.standing(context.teamId, context.userId, policy);
  return standing.kind === 'member' && standing.admin;
}

async function deleteOutcome(deps: OutcomeDeps, context: JobContext, id: string, answer: Answer) {
  const { teamId, userId } = context;
  const entry = await deps.store.outcomes.get(teamId, id);
  if (!entry)
    return answer(
      context,
      errorMessage(`There is no outcome entry ${id} in this workspace. Nothing was deleted.`),
    );
  if (entry.deletedAt)
    return answer(
      context,
      botNotice(mk`Entry ${escapeMrkdwn(id)} was deleted already, by ${mentionUser(entry.deletedBy ?? '')}.`),
    );
  if (
    !mayDeleteOutcome(entry, { userId, admin: entry.loggedBy !== userId && (await isAdmin(deps, context)) })
  )
    return answer(
      context,
      errorMessage(
        'Only the person who logged this entry, or a workspace admin, may delete it. Nothing was deleted.',
      ),
    );
  const deleted = await deps.store.outcomes.markDeleted(teamId, id, deletion(userId, deps.now()));
  if (!deleted) return answer(context, botNotice(mk`Entry ${escapeMrkdwn(id)} was deleted already.`));
  if (deleted.cardTs)
    await deps.slack.update(deleted.channelId, deleted.cardTs, outcomeCard(deleted)).catch((error: unknown) =>
      deps.logger.warn('the outcome’s card could not be updated', {
        slackError: slackErrorCode(error),
        error,
      }),
    );
  return answer(
    context,
    botNotice(
      mk`Deleted entry ${escapeMrkdwn(id)}; the record keeps it, marked deleted by ${mentionUser(userId)}.`,
    ),
  );
}

export function runOutcomeCommand(
  deps: OutcomeDeps,
  command: OutcomeCommand,
  context: JobContext,
  answer: Answer,
) {
  return command.name === 'outcome'
    ? logOutcome(deps, context, command, answer)
    : deleteOutcome(deps, context, command.id, answer);
}
